# bench.gp - plot of the msync benchmark, called by report.sh as
#   gnuplot -e "outdir='DIR'; term='pngcairo'" bench.gp
# reads DIR/bench_plot_m{1,2,4}.dat, writes DIR/bench.png
if (!exists("outdir")) outdir = "."
if (!exists("term")) term = "pngcairo"

if (term eq "pngcairo") {
	set terminal pngcairo noenhanced size 1400,1000 font ",10"
} else {
	set terminal png noenhanced size 1400,1000
}
set output outdir."/bench.png"
set datafile missing "NA"
set key top left
set grid
set multiplot layout 2,2 title "msync() on Linux v3.5: unpatched vs patched (QEMU TCG guest)"

m1 = outdir."/bench_plot_m1.dat"
m2 = outdir."/bench_plot_m2.dat"
m4 = outdir."/bench_plot_m4.dat"

set xtics 0,32
set title "M1: msync(MS_SYNC) of one 4 KiB page, latency"
set xlabel "other dirty data in the same file, D (MiB)"
set ylabel "latency (ms)"
set logscale y
plot m1 using 1:2 with linespoints lw 2 pt 7 title "unpatched", \
     m1 using 1:3 with linespoints lw 2 pt 5 title "patched"

set title "M1: msync(MS_SYNC) of one 4 KiB page, bytes written"
set ylabel "written to the device (KiB)"
plot m1 using 1:4 with linespoints lw 2 pt 7 title "unpatched", \
     m1 using 1:5 with linespoints lw 2 pt 5 title "patched"

set xtics 0,8
set title "M2: msync(MS_SYNC) of R MiB of a fully dirty file"
set xlabel "range R (MiB)"
set ylabel "written to the device (KiB)"
plot m2 using 1:2 with linespoints lw 2 pt 7 title "unpatched", \
     m2 using 1:3 with linespoints lw 2 pt 5 title "patched"

set title "M4: longest time in the call, saturated device"
set xlabel ""
set ylabel "longest time in the call (ms)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -25 nomirror
set key top left
plot m4 using 3:xtic(2) title "unpatched", \
     m4 using 4 title "patched"
unset multiplot
