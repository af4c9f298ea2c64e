package org.mpcache.tiers;

import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/**
 * What the emulated tiers should look like: the mechanism asked for and, for each node's HDD and
 * SSD, the limits and the size. Immutable and thread-safe; built from a configuration by {@link
 * #from}, which validates every value once and names the key of any bad one.
 */
public final class TierSpec {
  /** Smallest device size accepted: ext4 and a few HDFS blocks must fit. */
  static final long MIN_SIZE_BYTES = 64L << 20;
  /** Smallest dirty limit accepted: below a few MiB writeback stalls on every request. */
  static final long MIN_DIRTY_BYTES = 4L << 20;

  /** Limits and size of one emulated device. Immutable. */
  public static final class Device {
    private final long readBytesPerSec;
    private final long writeBytesPerSec;
    private final int iops;
    private final long sizeBytes;

    /** Validated by {@link TierSpec#from}; use that, or check values yourself. */
    public Device(long readBytesPerSec, long writeBytesPerSec, int iops, long sizeBytes) {
      this.readBytesPerSec = readBytesPerSec;
      this.writeBytesPerSec = writeBytesPerSec;
      this.iops = iops;
      this.sizeBytes = sizeBytes;
    }

    public long readBytesPerSec() {
      return readBytesPerSec;
    }

    public long writeBytesPerSec() {
      return writeBytesPerSec;
    }

    /** Requests per second, reads and writes each. */
    public int iops() {
      return iops;
    }

    public long sizeBytes() {
      return sizeBytes;
    }

    /** The time a request costs at the IOPS limit, in milliseconds. */
    public double requestMillis() {
      return 1000.0 / iops;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "read %.0f MiB/s, write %.0f MiB/s, %d IOPS, %d MiB",
          readBytesPerSec / 1048576.0, writeBytesPerSec / 1048576.0, iops, sizeBytes >> 20);
    }
  }

  private final MechanismChoice mechanism;
  private final Device hdd;
  private final Device ssd;
  private final long dirtyBytes;

  public TierSpec(MechanismChoice mechanism, Device hdd, Device ssd, long dirtyBytes) {
    this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
    this.hdd = Objects.requireNonNull(hdd, "hdd");
    this.ssd = Objects.requireNonNull(ssd, "ssd");
    this.dirtyBytes = dirtyBytes;
  }

  /**
   * Reads the {@link TierConfigKeys} from {@code conf}.
   *
   * @throws IllegalArgumentException naming the key, the value and what is accepted
   */
  public static TierSpec from(Configuration conf) {
    MechanismChoice m = MechanismChoice.parse(
        conf.get(TierConfigKeys.MECHANISM_KEY, TierConfigKeys.MECHANISM_DEFAULT));
    Device hdd = new Device(
        positiveBytes(conf, TierConfigKeys.HDD_READ_BPS_KEY, TierConfigKeys.HDD_READ_BPS_DEFAULT),
        positiveBytes(conf, TierConfigKeys.HDD_WRITE_BPS_KEY, TierConfigKeys.HDD_WRITE_BPS_DEFAULT),
        positiveInt(conf, TierConfigKeys.HDD_IOPS_KEY, TierConfigKeys.HDD_IOPS_DEFAULT),
        size(conf, TierConfigKeys.HDD_SIZE_KEY, TierConfigKeys.HDD_SIZE_DEFAULT));
    Device ssd = new Device(
        positiveBytes(conf, TierConfigKeys.SSD_READ_BPS_KEY, TierConfigKeys.SSD_READ_BPS_DEFAULT),
        positiveBytes(conf, TierConfigKeys.SSD_WRITE_BPS_KEY, TierConfigKeys.SSD_WRITE_BPS_DEFAULT),
        positiveInt(conf, TierConfigKeys.SSD_IOPS_KEY, TierConfigKeys.SSD_IOPS_DEFAULT),
        size(conf, TierConfigKeys.SSD_SIZE_KEY, TierConfigKeys.SSD_SIZE_DEFAULT));
    long dirty = bytes(conf, TierConfigKeys.DIRTY_BYTES_KEY, TierConfigKeys.DIRTY_BYTES_DEFAULT);
    if (dirty < 0 || (dirty > 0 && dirty < MIN_DIRTY_BYTES)) {
      throw new IllegalArgumentException(TierConfigKeys.DIRTY_BYTES_KEY + " = '"
          + conf.get(TierConfigKeys.DIRTY_BYTES_KEY) + "' must be 0 (the machine's limits) or at "
          + "least " + (MIN_DIRTY_BYTES >> 20) + "m (suffixes k, m, g allowed)");
    }
    return new TierSpec(m, hdd, ssd, dirty);
  }

  private static long positiveBytes(Configuration conf, String key, long dflt) {
    long v = bytes(conf, key, dflt);
    if (v <= 0) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key)
          + "' must be a positive number of bytes per second (suffixes k, m, g allowed)");
    }
    return v;
  }

  private static long size(Configuration conf, String key, long dflt) {
    long v = bytes(conf, key, dflt);
    if (v < MIN_SIZE_BYTES) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key) + "' is too small: a tier "
          + "needs at least " + (MIN_SIZE_BYTES >> 20) + "m (suffixes k, m, g, t allowed)");
    }
    return v;
  }

  private static long bytes(Configuration conf, String key, long dflt) {
    try {
      return conf.getLongBytes(key, dflt);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key)
          + "' is not a number of bytes (suffixes k, m, g, t allowed)", e);
    }
  }

  private static int positiveInt(Configuration conf, String key, int dflt) {
    int v;
    try {
      v = conf.getInt(key, dflt);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key) + "' is not an integer", e);
    }
    if (v <= 0) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key)
          + "' must be a positive number of requests per second");
    }
    return v;
  }

  public MechanismChoice mechanism() {
    return mechanism;
  }

  public Device hdd() {
    return hdd;
  }

  public Device ssd() {
    return ssd;
  }

  /** Dirty page-cache bytes each device may hold before its writers wait; 0 for no limit. */
  public long dirtyBytes() {
    return dirtyBytes;
  }

  /** The same limits and sizes with another mechanism choice. */
  public TierSpec withMechanism(MechanismChoice m) {
    return new TierSpec(m, hdd, ssd, dirtyBytes);
  }

  @Override
  public String toString() {
    return "HDD " + hdd + "; SSD " + ssd + "; dirty limit "
        + (dirtyBytes == 0 ? "none" : (dirtyBytes >> 20) + " MiB per device") + "; mechanism "
        + mechanism;
  }
}
