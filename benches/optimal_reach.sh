#!/bin/sh
# How far `check optimal` gets in 60 s, per task and network family
# (BENCHMARKS.md, "check optimal: reach"). Each family grows until a size
# is stopped at the timeout; prints size, answer, certificate and wall time.
# Usage: benches/optimal_reach.sh [target/release/check]
CHECK=${1:-target/release/check}
family() {
    label=$1; shift
    for size in $SIZES; do
        args=$(echo "$*" | sed "s/@/$size/g; s/CENTRE/$((size / 2 * size + size / 2))/g")
        start=$(date +%s.%N)
        out=$($CHECK optimal $args --timeout 60 --json 2>&1)
        end=$(date +%s.%N)
        slots=$(echo "$out" | sed -n 's/^  "slots": \(.*\),$/\1/p')
        cert=$(echo "$out" | sed -n 's/^  "certified_by": "\(.*\)",$/\1/p')
        printf '%s | %s | %s | %s | %.2f\n' "$label" "$args" "$slots" "$cert" "$(awk "BEGIN { print $end - $start }")"
        [ "$slots" = "null" ] && break
    done
}
SIZES="6 7 8 9 10" family "broadcast, all-port wh cube" "broadcast hypercube:@ --switching wh"
SIZES="5 6 7 8" family "broadcast, all-port wh cube, any routes" "broadcast hypercube:@ --switching wh --routes any"
SIZES="3 4 5 6" family "allgather, MLA cube" "allgather hypercube:@"
SIZES="3 4 5 6" family "scatter, MLA cube" "scatter hypercube:@"
SIZES="2 3 4" family "alltoall, MLA cube" "alltoall hypercube:@"
SIZES="2 3 4" family "allgather, SLA cube" "allgather hypercube:@ --ports one"
SIZES="5 7 9 11 13" family "broadcast, all-port wh torus KxK" "broadcast torus:@x@ --switching wh"
SIZES="8 12 16 20" family "broadcast, all-port wh mesh KxK, centre" "broadcast:CENTRE mesh:@x@ --switching wh"
SIZES="4 5 6 7 8" family "broadcast, one-port wh mesh KxK" "broadcast mesh:@x@ --switching wh --ports one"
SIZES="4 8 12 16 24" family "broadcast, one-port sf mesh KxK" "broadcast mesh:@x@ --ports one --max-slots 64"
SIZES="2 3 4 5" family "allgather, mesh-bus NxN, l = N" "allgather mesh-bus:@ --ell @"
