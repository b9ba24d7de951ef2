# pfc-pg.gp - docs/mechanisms/figures/pfc-pg.png from pfc.csv (pfc.c).
stats d.'/pfc.csv' every ::1::1 using 9 nooutput
reserve = STATS_min
stats d.'/pfc.csv' every ::1::1 using 10 nooutput
xoffth = STATS_min
stats d.'/pfc.csv' every ::1::1 using 11 nooutput
xonoff = STATS_min
stats d.'/pfc.csv' every ::1::1 using 12 nooutput
hdrm = STATS_min
xoff_level = reserve + xoffth
xon_level = reserve + xoffth - xonoff
limit = reserve + xoffth + hdrm
set title "PFC: ingress PG (port 1, priority 0) under a 3:1 incast, link delay 20 cycles"
set xlabel "time (cycles; 1 cycle = 5.12 ns at 100 Gb/s)"
set ylabel "PG occupancy (blocks)"
set xrange [0:2500]
set yrange [0:limit + 30]
set key below maxcols 2 width 2
set grid
set style fill solid 0.5 noborder
plot d.'/pfc.csv' every ::1 using 1:($2+$3+$4):($2+$3) with filledcurves lc rgb '#d62728' title 'pg\_hdrm (headroom)', \
     '' every ::1 using 1:($2+$3):2 with filledcurves lc rgb '#1f77b4' title 'pg\_shared (shared pool)', \
     '' every ::1 using 1:2:(0) with filledcurves lc rgb '#2ca02c' title 'pg\_min (reserve)', \
     limit with lines dt 2 lw 1.5 lc rgb 'black' title sprintf('reserve + xoff\_th + headroom = %d', limit), \
     xoff_level with lines dt 4 lw 1.5 lc rgb '#d62728' title sprintf('XOFF level: reserve + xoff\_th = %d', xoff_level), \
     xon_level with lines dt 4 lw 1.5 lc rgb '#2ca02c' title sprintf('XON level: ... - xon\_offset = %d', xon_level), \
     '' every ::1 using 1:($7 == 1 ? limit + 15 : 1/0) with points pt 11 ps 1.3 lc rgb '#d62728' title 'XOFF frame sent to the sender', \
     '' every ::1 using 1:($7 == 2 ? limit + 15 : 1/0) with points pt 9 ps 1.3 lc rgb '#2ca02c' title 'XON frame sent'
