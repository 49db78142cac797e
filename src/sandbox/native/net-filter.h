/* The network seccomp filter: io_uring refused always (its requests create sockets and connect
 * without passing through the socket system calls), and with the network off only Unix stream
 * and seqpacket sockets, never a connect(). Included by nh-sandbox.c after its NATIVE_ARCH block;
 * static functions only. */
#include <sys/socket.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
/* 32-bit callers (i386 on x86_64, arm on aarch64). io_uring_setup is 425 everywhere. */
#if defined(__x86_64__)
#define COMPAT_SOCKET 359
#define COMPAT_SOCKETPAIR 360
#define COMPAT_CONNECT 362
#define COMPAT_SOCKETCALL 102
#elif defined(__aarch64__)
#define COMPAT_SOCKET 281
#define COMPAT_SOCKETPAIR 288
#define COMPAT_CONNECT 283
#define COMPAT_SOCKETCALL 0xffffffff /* no socketcall on 32-bit ARM EABI */
#endif
/* x32 system calls are the native numbers with this bit set: masked off before comparing. */
#define X32_BIT 0x40000000U

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define DENY_WITH(err) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/*
 * Contract: io_uring_setup fails with EPERM (as when the kernel.io_uring_disabled sysctl is set,
 * which programs already fall back from). With `network_off`, socket() and socketpair() fail with
 * EACCES unless the family is AF_UNIX and the type SOCK_STREAM or SOCK_SEQPACKET, and connect()
 * always fails with EACCES: only Unix sockets exist then, and Landlock cannot tell a connect to
 * the workspace's socket from one to /var/run/docker.sock. Unix datagram sockets are refused
 * because sendto()/sendmsg() with an address reaches a socket without connect() (such as /dev/log).
 */
static void install_net_filter(int network_off) {
#ifdef NATIVE_ARCH
  /* A number no call has (the x32 bit is masked off before natives are compared): a rule for the
   * network-off case compares against it when the network is on, so it never matches. */
#define NET(nr) (network_off ? (uint32_t)(nr) : 0xffffffffU)
  struct sock_filter code[] = {
      /* 0 */ LOAD(arch),
      /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 7), /* else -> 9 */
      /* 2 */ LOAD(nr),
      /* 3 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, ~X32_BIT),
      /* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 20, 0), /* -> 25 */
      /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(__NR_socket), 11, 0),   /* -> 17 */
      /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(__NR_socketpair), 10, 0), /* -> 17 */
      /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(__NR_connect), 16, 0),  /* -> 24 */
      /* 8 */ ALLOW,
      /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_ARCH, 0, 13), /* else -> 23 */
      /* 10 */ LOAD(nr),
      /* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 13, 0), /* -> 25 */
      /* 12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(COMPAT_SOCKET), 4, 0),    /* -> 17 */
      /* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(COMPAT_SOCKETPAIR), 3, 0), /* -> 17 */
      /* 14 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(COMPAT_CONNECT), 9, 0),   /* -> 24 */
      /* 15: socketcall's arguments are in memory seccomp cannot read: refused whole */
      /* 15 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NET(COMPAT_SOCKETCALL), 8, 0), /* -> 24 */
      /* 16 */ ALLOW,
      /* 17: socket() and socketpair(): args[0] is the family, args[1] the type with its flags */
      /* 17 */ LOAD(args[0]),
      /* 18 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 5), /* else -> 24 */
      /* 19 */ LOAD(args[1]),
      /* 20 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf), /* SOCK_NONBLOCK and SOCK_CLOEXEC are above */
      /* 21 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 1, 0),    /* -> 23 */
      /* 22 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_SEQPACKET, 0, 1), /* else -> 24 */
      /* 23 */ ALLOW,
      /* 24 */ DENY_WITH(EACCES),
      /* 25 */ DENY_WITH(EPERM),
  };
#undef NET
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) die("cannot install the network seccomp filter: %s", strerror(errno));
#else
  (void)network_off;
#endif
}
