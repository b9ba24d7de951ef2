# credits-incast.gp - docs/mechanisms/figures/credits-incast.png from credits.csv (credits.c).
# Called by scripts/doc-figures.sh, which sets the terminal, the output and d (the data dir).
set multiplot layout 2,1 title "IB credits under a 3:1 incast into a receiver draining at half rate (1 cycle = 5.12 ns at 100 Gb/s)"
set grid
set key outside right top
set xrange [0:8000]
set lmargin 10
set rmargin 30
set ylabel "credits (blocks)"
set title "switch egress port 0 -> slow receiver: credits available = (FCCL - FCTBS) mod 4096"
set yrange [0:110]
plot d.'/credits.csv' every ::1 using 1:2 with lines lw 1.5 lc rgb '#1f77b4' title 'FCCL - FCTBS', \
     '' every ::1 using 1:8 with lines dt 2 lw 1.5 lc rgb 'black' title 'receiver buffer (rx\_blocks)'
set title "blocks held in the switch: ingress VL buffers (occ) and the egress queue (qlen)"
set ylabel "blocks"
set xlabel "time (cycles)"
set yrange [0:420]
plot d.'/credits.csv' every ::1 using 1:4 with lines lc rgb '#d62728' title 'occ, ingress port 1', \
     '' every ::1 using 1:5 with lines lc rgb '#ff7f0e' title 'occ, ingress port 2', \
     '' every ::1 using 1:6 with lines lc rgb '#9467bd' title 'occ, ingress port 3', \
     '' every ::1 using 1:7 with lines dt 2 lw 1.5 lc rgb 'black' title 'vl\_blocks (credits given)', \
     '' every ::1 using 1:3 with lines lw 1.5 lc rgb '#2ca02c' title 'qlen, egress port 0'
unset multiplot
