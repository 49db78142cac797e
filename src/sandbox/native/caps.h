/* Root's capabilities under the sandbox: all dropped but the four a coding command as root needs
 * (tar and npm restoring owners and modes, git and make reading and writing files of other users).
 * Included by nh-sandbox.c; static functions only. */

/* Capabilities kept: CHOWN, DAC_OVERRIDE, FOWNER, FSETID. Everything else goes, CAP_LINUX_IMMUTABLE
 * (chattr +i/+a), CAP_SETUID/SETGID, CAP_KILL and CAP_SYS_ADMIN included; CAP_DAC_READ_SEARCH too
 * (DAC_OVERRIDE reads everything it did, and it is what open_by_handle_at needs to reach a file
 * through the writable mount beneath a read-only bind), and CAP_NET_RAW even with the network on
 * (raw and packet sockets sniff loopback; ping uses the unprivileged ICMP socket where the host's
 * net.ipv4.ping_group_range allows it). */
#define KEPT_CAPS ((1ULL << CAP_CHOWN) | (1ULL << CAP_DAC_OVERRIDE) | (1ULL << CAP_FOWNER) | (1ULL << CAP_FSETID))

/*
 * Contract: on return the effective, permitted and inheritable sets hold at most KEPT_CAPS, the ambient set is empty, and every other capability this kernel
 * knows is out of the bounding set (when we may drop it: that needs CAP_SETPCAP, which root has).
 * no_new_privs, set before, keeps exec from giving any back.
 */
static void keep_needed_capabilities(void) {
  uint64_t keep = KEPT_CAPS;
  /* The bounding set first: dropping from it needs CAP_SETPCAP in the effective set. */
  for (int cap = 0; cap < 64; cap++) {
    if (keep & (1ULL << cap)) continue;
    if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0) break; /* past the last capability this kernel has */
    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);                /* fails without CAP_SETPCAP: nothing to drop then */
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct head = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &head, data)) die("capget failed: %s", strerror(errno));
  for (int i = 0; i < 2; i++) {
    uint32_t mask = (uint32_t)(keep >> (32 * i));
    data[i].effective &= mask;
    data[i].permitted &= mask;
    data[i].inheritable &= mask;
  }
  if (syscall(SYS_capset, &head, data)) die("capset failed: %s", strerror(errno));
}
