# scripts/plot-latency-load.gp - latency against offered load, with the saturation points
# (scripts/plot-sweep latency-load; docs/sim.md "Plots for a design review").
# gnuplot -c plot-latency-load.gp LATENCY_LOAD.csv SATURATION.csv OUT.png: the file names are
# read as ARG1..ARG3, never as text of this script.
set terminal pngcairo size 900,600 noenhanced
set output ARG3
set datafile separator ","
set key at graph 0.02, graph 0.98 left top Left reverse box opaque
set grid
set xlabel "offered load (fraction of host line rate)"
set ylabel "packet latency, ns (source NIC to destination)"
set title "Latency against offered load: mean and p99 per point; saturation marked"
stats ARG1 using 6 nooutput
top = STATS_max * 1.1
set yrange [0:top * 1.08]
set xrange [0:1.05]
m(mode) = (strcol(1) eq mode)
plot ARG1 using (m("pfc") ? $2 : NaN):5 with linespoints lw 2 pt 7 lc rgb "#d62728" title "PFC mean", \
     ARG1 using (m("pfc") ? $2 : NaN):6 with linespoints lw 1 dt 2 pt 6 lc rgb "#d62728" title "PFC p99", \
     ARG1 using (m("ib") ? $2 : NaN):5 with linespoints lw 2 pt 5 lc rgb "#1f77b4" title "IB mean", \
     ARG1 using (m("ib") ? $2 : NaN):6 with linespoints lw 1 dt 2 pt 4 lc rgb "#1f77b4" title "IB p99", \
     ARG2 using 3:(0):(0):(top) with vectors nohead dt 3 lw 2 lc rgb "gray40" title "saturation (mean > 3x zero-load, or accepted < 0.95 x offered)", \
     ARG2 using 3:(strcol(1) eq "pfc" ? top * 0.55 : top * 0.5):(sprintf("%s saturates at %s", strcol(1) eq "pfc" ? "PFC" : "IB", strcol(3))) with labels right offset -0.5,0 notitle
