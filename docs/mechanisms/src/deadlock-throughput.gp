# deadlock-throughput.gp - docs/mechanisms/figures/deadlock-throughput.png from the lfc-sim
# runs of scripts/doc-figures.sh (deadlock_*.csv: time in us, total delivered Gb/s).
set title "4-switch ring, 4 flows: flow c (host 2 -> host 0) starts at 10 us and closes the cycle"
set xlabel "time (us)"
set ylabel "delivered, all flows (Gb/s)"
set grid
set key below maxcols 1
set xrange [0:30]
set yrange [0:260]
set arrow from 10,0 to 10,260 nohead dt 3 lc rgb 'gray40'
set label 'flow c starts' at 10.3,245
# The cycle lfc-sim reported the deadlock formed at (us), from its summary line.
at_pfc = real(system("cat ".d."/deadlock_ring_pfc.at"))
at_ib = real(system("cat ".d."/deadlock_ring_ib.at"))
set arrow from at_pfc,0 to at_pfc,215 nohead dt 2 lc rgb '#d62728'
set label 'deadlock found (PFC)' at at_pfc+0.3,225 textcolor rgb '#d62728'
set arrow from at_ib,0 to at_ib,185 nohead dt 2 lc rgb '#1f77b4'
set label 'deadlock found (IB)' at at_ib+0.3,195 textcolor rgb '#1f77b4'
plot d.'/deadlock_ring_pfc.csv' every ::1 using 1:2 with linespoints pt 7 ps 0.6 lw 1.5 lc rgb '#d62728' title 'PFC, clockwise routes (ring\_deadlock\_pfc)', \
     d.'/deadlock_ring_ib.csv' every ::1 using 1:2 with linespoints pt 5 ps 0.6 lw 1.5 lc rgb '#1f77b4' title 'IB credits, clockwise routes (ring\_deadlock\_ib)', \
     d.'/deadlock_updown.csv' every ::1 using 1:2 with linespoints pt 9 ps 0.6 lw 1.5 lc rgb '#2ca02c' title 'PFC, up*/down* routes (ring\_updown)'
