#!/usr/bin/env python3
"""tests/smpi-platform.py -- a SimGrid platform for a Boolean n-cube.

    tests/smpi-platform.py N PLATFORM.xml HOSTFILE [--bandwidth 1GBps] [--latency 1us]

Writes PLATFORM.xml: 2^N hosts n0 .. n(2^N - 1), one split-duplex (full-
duplex: each direction its own bandwidth) link per cube edge {x, x ^ 2^d},
named e<x>_<d> for the lower end x, and one route per edge (symmetrical,
so x -> y takes the link's UP direction and y -> x its DOWN one). The zone
uses Floyd routing: SimGrid completes the table with shortest paths over
these links, so every pair of hosts has a route (SMPI's own collectives,
MPI_Allreduce and MPI_Ibarrier, talk between any two ranks).

cubemu-smpi itself only sends between cube neighbours (node_mpi.c forwards
a path of several links through the intermediate ranks, one MPI message a
link), so every one of its messages crosses exactly its own cube link; the
shortest path Floyd picks for a collective's non-neighbour message is one
of the minimal paths, not necessarily the e-cube one. Writing the e-cube
route of every pair instead (a Full zone) takes 4^N routes: a million,
hundreds of megabytes of XML, at N = 10.

HOSTFILE lists the hosts in rank order: rank x runs on host nx.
"""
import argparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("n", type=int, help="cube dimension")
    ap.add_argument("platform")
    ap.add_argument("hostfile")
    ap.add_argument("--bandwidth", default="1GBps", help="per link direction")
    ap.add_argument("--latency", default="1us", help="per link")
    ap.add_argument("--speed", default="1Gf", help="per host")
    a = ap.parse_args()
    if not 0 <= a.n <= 16:
        ap.error("the dimension must be 0 .. 16")
    p = 1 << a.n
    out = ['<?xml version="1.0"?>',
           '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
           '<platform version="4.1">',
           '<!-- a %d-cube: %d hosts, %d full-duplex links of %s and %s '
           '(tests/smpi-platform.py) -->' % (a.n, p, a.n * p // 2,
                                             a.bandwidth, a.latency),
           '<zone id="cube%d" routing="Floyd">' % a.n]
    for x in range(p):
        out.append('<host id="n%d" speed="%s"/>' % (x, a.speed))
    for x in range(p):
        for d in range(a.n):
            if not x >> d & 1:
                out.append('<link id="e%d_%d" bandwidth="%s" latency="%s" '
                           'sharing_policy="SPLITDUPLEX"/>'
                           % (x, d, a.bandwidth, a.latency))
    for x in range(p):
        for d in range(a.n):
            if not x >> d & 1:
                out.append('<route src="n%d" dst="n%d" symmetrical="YES">'
                           '<link_ctn id="e%d_%d" direction="UP"/></route>'
                           % (x, x | 1 << d, x, d))
    out += ['</zone>', '</platform>', '']
    with open(a.platform, "w") as f:
        f.write("\n".join(out))
    with open(a.hostfile, "w") as f:
        f.write("".join("n%d\n" % x for x in range(p)))


if __name__ == "__main__":
    main()
