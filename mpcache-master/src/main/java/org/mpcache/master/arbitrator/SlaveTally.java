package org.mpcache.master.arbitrator;

/**
 * Bytes of one dataset cached per slave: a small open-addressing map from slave index to bytes,
 * so that victim selection learns in O(1) whether evicting a dataset frees room on the requesting
 * slave. Linear probing with backward-shift deletion; about 24 bytes per slave the dataset touches.
 *
 * <p>Not thread-safe: owned by one {@link DatasetEntry}.
 */
final class SlaveTally {
  private int[] slaves = new int[4]; // slave index + 1; 0 marks an empty slot
  private long[] bytes = new long[4];
  private int size;

  long get(int slave) {
    int mask = slaves.length - 1;
    for (int i = mix(slave) & mask; slaves[i] != 0; i = (i + 1) & mask) {
      if (slaves[i] == slave + 1) {
        return bytes[i];
      }
    }
    return 0;
  }

  /** Adds {@code delta} (possibly negative) to the slave's bytes; a slot reaching 0 is freed. */
  void add(int slave, long delta) {
    int mask = slaves.length - 1;
    int i = mix(slave) & mask;
    while (slaves[i] != 0 && slaves[i] != slave + 1) {
      i = (i + 1) & mask;
    }
    if (slaves[i] == 0) {
      if (delta == 0) {
        return;
      }
      slaves[i] = slave + 1;
      bytes[i] = delta;
      if (++size * 4 > slaves.length * 3) {
        resize(slaves.length * 2);
      }
      return;
    }
    bytes[i] += delta;
    if (bytes[i] == 0) {
      delete(i);
    }
  }

  private void delete(int hole) {
    int mask = slaves.length - 1;
    size--;
    int i = hole;
    while (true) {
      i = (i + 1) & mask;
      if (slaves[i] == 0) {
        break;
      }
      int home = mix(slaves[i] - 1) & mask;
      // Shift back the entry at i if its home slot is not cyclically within (hole, i].
      if (((i - home) & mask) >= ((i - hole) & mask)) {
        slaves[hole] = slaves[i];
        bytes[hole] = bytes[i];
        hole = i;
      }
    }
    slaves[hole] = 0;
    bytes[hole] = 0;
  }

  private void resize(int capacity) {
    int[] oldSlaves = slaves;
    long[] oldBytes = bytes;
    slaves = new int[capacity];
    bytes = new long[capacity];
    size = 0;
    for (int i = 0; i < oldSlaves.length; i++) {
      if (oldSlaves[i] != 0) {
        add(oldSlaves[i] - 1, oldBytes[i]);
      }
    }
  }

  private static int mix(int x) {
    return x * 0x9E3779B9 >>> 16 ^ x;
  }
}
