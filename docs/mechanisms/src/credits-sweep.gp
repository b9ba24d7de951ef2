# credits-sweep.gp - docs/mechanisms/figures/credits-sweep.png from credits_sweep.csv.
stats d.'/credits_sweep.csv' every ::1 using 5 nooutput
bound = STATS_max
set title "One flow over a 50-cycle link: throughput against the receive buffer (vl\\_blocks)"
set xlabel "vl\\_blocks: switch receive buffer per (ingress port, VL) = credits (blocks)"
set ylabel "throughput (blocks per cycle)"
set grid
set key bottom right
set yrange [0:1.05]
set arrow from bound,0 to bound,1.05 nohead dt 2 lw 1.5 lc rgb 'black'
set label sprintf("SPEC §11 bound\nfor a switch ingress: %d", bound) at bound+4,0.3
plot d.'/credits_sweep.csv' every ::1 using 1:2 with linespoints pt 7 lc rgb '#1f77b4' title 'delivered, measured'
