# scripts/plot-fct-slowdown.gp - FCT slowdown by flow size, median and p99 per size
# (scripts/plot-sweep fct-slowdown; docs/sim.md "Plots for a design review").
# gnuplot -c plot-fct-slowdown.gp FCT_SLOWDOWN.csv OUT.png SERIES: the file names are read as
# ARG1, ARG2, never as text of this script. One pair of lines per (mode, load) of the CSV.
set terminal pngcairo size 900,600 noenhanced
set output ARG2
set datafile separator ","
set key at graph 0.02, graph 0.98 left top Left reverse box opaque
set grid
set logscale x 2
set logscale y 2
set format x "%.0b %BB"
set xlabel "flow size, bytes"
set ylabel "FCT slowdown (FCT / FCT alone in the fabric)"
set title "Flow completion time slowdown by size: median (solid) and p99 (dashed)"
# the (mode, load) series, as ARG3 gives them: words "MODE,LOAD" (scripts/plot-sweep makes
# them from the CSV's values, which it checked: pfc or ib, and a number)
n = words(ARG3)
name(i) = word(ARG3, i)[1:strstrt(word(ARG3, i), ",") - 1]
ld(i) = word(ARG3, i)[strstrt(word(ARG3, i), ",") + 1:]
sel(i) = (strcol(1) eq name(i) && strcol(2) eq ld(i))
set yrange [0.8:*]
plot for [i=1:n] ARG1 using (sel(i) ? $3 : NaN):5 with linespoints lw 2 pt 7 lc i \
       title sprintf("%s load %s median", name(i) eq "pfc" ? "PFC" : "IB", ld(i)), \
     for [i=1:n] ARG1 using (sel(i) ? $3 : NaN):6 with linespoints lw 1 dt 2 pt 6 lc i \
       title sprintf("%s load %s p99", name(i) eq "pfc" ? "PFC" : "IB", ld(i))
