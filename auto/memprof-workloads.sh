# SPDX-License-Identifier: GPL-2.0-or-later
# The workloads of memprof-ab.sh and memprof-parts.sh, at the sizes that
# side-by-side and repeated runs can afford.  Sourced, with $out set to
# the directory of their inputs and binaries.

# workload_command W: the command line of workload W; fails for an
# unknown one.
workload_command() {
   case $1 in
   gzip) echo "gzip -9 -c $out/text" ;;
   xz)   echo "xz -6 -c $out/text" ;;
   sqlite3) echo "sqlite3 -batch -init $out/workload.sql :memory: .quit" ;;
   python3) echo "/usr/bin/python3 -S bench/dictsort.py 20000" ;;
   matmul|allocs|triad|chase|falseshare|particles) echo "$out/bin/$1" ;;
   true) echo /bin/true ;;   # the fixed costs: start-up and exit
   *) return 1 ;;
   esac
}

# workload_inputs: builds the kernels and makes the inputs in $out.
workload_inputs() {
   mkdir -p $out/bin
   for w in bench/matmul.c bench/allocs.c bench/triad.c bench/chase.c examples/particles.c; do
      gcc -O2 -g -o $out/bin/"$(basename "$w" .c)" "$w"
   done
   gcc -O2 -g -pthread -o $out/bin/falseshare bench/falseshare.c
   # sqlite3: 5,000 rows inserted, an index, a LIKE and a GROUP BY.
   sed 's/@ROWS@/5000/' bench/sqlite3.sql.in >$out/workload.sql
   # gzip, xz: 1 MB of the benchmark's generated text.
   [ -f $out/text ] || python3 auto/memprof-text.py $((1 << 20)) $out/text
}
