# Drawn by asio_notify_bench; run in this directory: gnuplot results.gp
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1400,700 font ',10'
} else {
  set terminal png size 1400,700
}
set output 'results.png'
set termoption noenhanced
set datafile missing 'NaN'
set title 'Boost.AsioNotify / stock Boost.Asio: ratio of medians (log scale); red bars: targets, bound under each name'
set ylabel 'notify / stock'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set bmargin 5
set logscale y 2
set yrange [0.125:*]
set grid ytics
set key outside right top
set key autotitle columnheader
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'gray40'
plot 'results.dat' using 2:xtic(1), 'results.dat' using ($0+0):2:(sprintf('%.2f', column(2))) with labels offset 0,0.7 font ',8' notitle, 'results.dat' using ($0-0.45):3:(0.9):(0) with vectors nohead lw 3 lc rgb 'red' title 'target'
