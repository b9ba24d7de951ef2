# ecn-wred.gp - docs/mechanisms/figures/ecn-wred.png from ecn.csv (ecn.c).
stats d.'/ecn.csv' every ::1::1 using 8 nooutput
kmin = STATS_min
stats d.'/ecn.csv' every ::1::1 using 9 nooutput
kmax = STATS_min
stats d.'/ecn.csv' every ::1::1 using 10 nooutput
pmax = STATS_min / 65536.0
wred(q) = q <= kmin ? 0 : (q > kmax ? 1 : pmax * (q - kmin) / (kmax - kmin))
set title sprintf("ECN/WRED: marked fraction against egress queue length (kmin %d, kmax %d, pmax %.0f %%)", kmin, kmax, 100 * pmax)
set xlabel "egress queue length qlen when the packet starts (blocks)"
set ylabel "fraction of packets marked CE"
set grid
set key at 190,0.9 right box opaque
set yrange [-0.02:1.05]
set xrange [0:260]
set samples 1000
set arrow from kmin,-0.02 to kmin,1.05 nohead dt 3 lc rgb 'gray40'
set arrow from kmax,-0.02 to kmax,1.05 nohead dt 3 lc rgb 'gray40'
set label 'kmin' at kmin+2,0.6
set label 'kmax' at kmax+2,0.6
plot wred(x) with lines lw 2 lc rgb 'black' title 'SPEC §9.2: pmax (q - kmin)/(kmax - kmin)', \
     d.'/ecn.csv' every ::1 using 3:6 with points pt 7 ps 1.2 lc rgb '#d62728' title 'measured (10-block bins, model run)'
