# Drawn by asio_notify_bench; run in this directory: gnuplot scaling.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1200,700 font ',10'
} else {
  set terminal png size 1200,700
}
set output 'scaling.png'
set termoption noenhanced
set datafile missing 'NaN'
set title 'echo throughput against io threads: median, bars from min to max'
set xlabel 'threads running the io_context (log2 scale)'
set ylabel 'MB/s'
set logscale x 2
set xrange [0.769231:2.6]
set yrange [0:*]
set grid
set key outside right top
set xtics (1, 2)
plot 'scaling.dat' using 1:2:3:4 with yerrorlines lw 3 lc rgb 'black' title 'stock Asio (epoll)', \
     'scaling.dat' using 1:5:6:7 with yerrorlines lw 2 title 'notify inline/edge (default)', \
     'scaling.dat' using 1:8:9:10 with yerrorlines lw 2 title 'notify inline/oneshot', \
     'scaling.dat' using 1:11:12:13 with yerrorlines lw 2 title 'notify inline_portable/edge', \
     'scaling.dat' using 1:14:15:16 with yerrorlines lw 2 title 'notify inline_portable/oneshot', \
     'scaling.dat' using 1:17:18:19 with yerrorlines lw 2 title 'notify thread/edge', \
     'scaling.dat' using 1:20:21:22 with yerrorlines lw 2 title 'notify thread/oneshot'
