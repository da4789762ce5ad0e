"""Records how every process on the machine ends, for scripts/slurm-test.sh: one line
`PID STATUS` per process (thread-group leader) that exits, STATUS being the kernel's wait
status (a signal number below 128 when a signal ended it, the exit code times 256
otherwise), appended to FILE until stopped. Writes `ready` first, once it listens.
Uses the kernel's process events connector (netlink), so it needs root.
Usage: process_exits.py FILE"""

import socket
import struct
import sys

NETLINK_CONNECTOR = 11
CN_IDX_PROC = CN_VAL_PROC = 1
PROC_CN_MCAST_LISTEN = 1
PROC_EVENT_EXIT = 0x80000000
NLMSG_DONE = 3
SO_RCVBUFFORCE = 33
NLMSG_HDR = 16  # struct nlmsghdr
CN_MSG = 20  # struct cn_msg, before its data
EVENT_HDR = 16  # struct proc_event: what, cpu, timestamp_ns, before event_data


def main():
    (path,) = sys.argv[1:]
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_CONNECTOR)
    # Room for bursts (a build starting hundreds of processes), so no exit is dropped.
    s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)
    s.bind((0, CN_IDX_PROC))
    op = struct.pack("=I", PROC_CN_MCAST_LISTEN)
    cn = struct.pack("=IIIIHH", CN_IDX_PROC, CN_VAL_PROC, 0, 0, len(op), 0) + op
    s.send(struct.pack("=IHHII", NLMSG_HDR + len(cn), NLMSG_DONE, 0, 0, 0) + cn)
    with open(path, "w", buffering=1) as out:
        print("ready", file=out)
        while True:
            data = s.recv(1 << 16)
            at = 0
            while at + NLMSG_HDR <= len(data):
                (length,) = struct.unpack_from("=I", data, at)
                event = at + NLMSG_HDR + CN_MSG
                (what,) = struct.unpack_from("=I", data, event)
                if what == PROC_EVENT_EXIT:
                    pid, tgid, status = struct.unpack_from("=III", data, event + EVENT_HDR)
                    if pid == tgid:
                        print(tgid, status, file=out)
                at += (length + 3) & ~3
                if length == 0:
                    break


if __name__ == "__main__":
    main()
