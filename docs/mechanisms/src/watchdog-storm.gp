# watchdog-storm.gp - docs/mechanisms/figures/watchdog-storm.png from watchdog.csv.
stats d.'/watchdog.csv' every ::1::1 using 15 nooutput
detect = STATS_min
stats d.'/watchdog.csv' every ::1::1 using 16 nooutput
restore = STATS_min
set multiplot layout 4,1 title "PFC watchdog (drop action): a receiver sends XOFF every 400 cycles from cycle 1000 to 9000"
set grid
set xrange [0:13000]
set lmargin 10
set rmargin 32
set key outside right top
set style fill solid 0.15 noborder
set title "egress queue (port 0, prio 0): pause from the receiver"
set ylabel "cycles"
set yrange [0:900]
plot d.'/watchdog.csv' every ::1 using 1:($5 * 900) with filledcurves y1=0 lc rgb '#d62728' title 'wd\_storm = 1', \
     '' every ::1 using 1:2 with lines lc rgb '#1f77b4' title 'pause\_timer', \
     '' every ::1 using 1:($9 > 0 ? 850 : 1/0) with points pt 11 lc rgb 'black' title 'PFC frame received'
set title "watchdog counters"
set yrange [0:2200]
plot d.'/watchdog.csv' every ::1 using 1:($5 * 2200) with filledcurves y1=0 lc rgb '#d62728' title 'wd\_storm = 1', \
     '' every ::1 using 1:3 with lines lw 1.5 lc rgb '#1f77b4' title 'wd\_cnt (paused cycles)', \
     '' every ::1 using 1:4 with lines lw 1.5 lc rgb '#2ca02c' title 'wd\_rcnt (cycles w/o pause)', \
     detect with lines dt 2 lc rgb '#1f77b4' title sprintf('wd\_detect = %d', detect), \
     restore with lines dt 2 lc rgb '#2ca02c' title sprintf('wd\_restore = %d', restore), \
     '' every ::1 using 1:($13 > 0 ? 2100 : 1/0) with points pt 7 ps 1.5 lc rgb '#d62728' title 'trip', \
     '' every ::1 using 1:($14 > 0 ? 2100 : 1/0) with points pt 7 ps 1.5 lc rgb '#2ca02c' title 'restore'
set title "blocks held: the pause backs up into the sender until the trip"
set yrange [0:150]
set ylabel "blocks"
plot d.'/watchdog.csv' every ::1 using 1:($5 * 150) with filledcurves y1=0 lc rgb '#d62728' title 'wd\_storm = 1', \
     '' every ::1 using 1:6 with lines lw 1.5 lc rgb '#1f77b4' title 'qlen, egress port 0', \
     '' every ::1 using 1:7 with lines lc rgb '#ff7f0e' title 'PG occupancy, ingress port 1', \
     '' every ::1 using 1:($8 * 120) with lines dt 2 lc rgb 'black' title 'xoff to the sender (on/off)'
set title "what got through and what was dropped (cumulative)"
set ylabel "packets (16 blocks)"
set xlabel "time (cycles; 1 cycle = 5.12 ns at 100 Gb/s)"
set yrange [0:260]
plot d.'/watchdog.csv' every ::1 using 1:($5 * 260) with filledcurves y1=0 lc rgb '#d62728' title 'wd\_storm = 1', \
     '' every ::1 using 1:($12 / 16) with lines lw 1.5 lc rgb '#2ca02c' title 'packets sent on port 0', \
     '' every ::1 using 1:10 with lines lw 1.5 lc rgb '#d62728' title 'dropped, cause WATCHDOG'
unset multiplot
