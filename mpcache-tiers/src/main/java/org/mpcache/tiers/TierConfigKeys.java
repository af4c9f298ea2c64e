package org.mpcache.tiers;

/**
 * Configuration keys of the emulated storage tiers the evaluation runs on, as KEY/DEFAULT pairs.
 * Byte values accept Hadoop's size suffixes (k, m, g, t: powers of 1024). The defaults describe
 * a 7,200 rpm SATA disk (about 150 MB/s sequential, 125 random requests per second, i.e. 8 ms
 * each) and a SATA SSD (about 500 MB/s, 20,000 requests per second). {@link TierSpec#from} reads
 * and validates them. Every key is described in {@value #DEFAULT_RESOURCE}.
 */
public final class TierConfigKeys {

  /** The defaults file describing these keys, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-tiers-default.xml";
  /**
   * How the tiers are emulated: auto (the kernel mechanism when the machine allows it, else user
   * space), kernel (fail when not allowed), userspace, or none (plain directories, no limits).
   */
  public static final String MECHANISM_KEY = "mpcache.tiers.mechanism";
  public static final String MECHANISM_DEFAULT = "auto";

  /** Read bandwidth of each node's HDD, in bytes per second; shared by all its readers. */
  public static final String HDD_READ_BPS_KEY = "mpcache.tiers.hdd.read.bytes-per-sec";
  public static final long HDD_READ_BPS_DEFAULT = 150L << 20;

  /** Write bandwidth of each node's HDD, in bytes per second; shared by all its writers. */
  public static final String HDD_WRITE_BPS_KEY = "mpcache.tiers.hdd.write.bytes-per-sec";
  public static final long HDD_WRITE_BPS_DEFAULT = 150L << 20;

  /** Requests per second each node's HDD serves, for reads and for writes (1000/IOPS ms each). */
  public static final String HDD_IOPS_KEY = "mpcache.tiers.hdd.iops";
  public static final int HDD_IOPS_DEFAULT = 125;

  /** Size of each node's emulated HDD (a sparse image: only what is written takes space). */
  public static final String HDD_SIZE_KEY = "mpcache.tiers.hdd.size";
  public static final long HDD_SIZE_DEFAULT = 8L << 30;

  /** Read bandwidth of each node's SSD, in bytes per second. */
  public static final String SSD_READ_BPS_KEY = "mpcache.tiers.ssd.read.bytes-per-sec";
  public static final long SSD_READ_BPS_DEFAULT = 500L << 20;

  /** Write bandwidth of each node's SSD, in bytes per second. */
  public static final String SSD_WRITE_BPS_KEY = "mpcache.tiers.ssd.write.bytes-per-sec";
  public static final long SSD_WRITE_BPS_DEFAULT = 500L << 20;

  /** Requests per second each node's SSD serves, for reads and for writes. */
  public static final String SSD_IOPS_KEY = "mpcache.tiers.ssd.iops";
  public static final int SSD_IOPS_DEFAULT = 20_000;

  /** Size of each node's emulated SSD (a sparse image). */
  public static final String SSD_SIZE_KEY = "mpcache.tiers.ssd.size";
  public static final long SSD_SIZE_DEFAULT = 4L << 30;

  /**
   * Dirty page-cache bytes each emulated device may hold before its writers wait for the device
   * (a strict per-device limit, kernel mechanism only). The machine's own limits let gigabytes of
   * spills and map outputs sit in memory and never reach the throttled devices while a job runs;
   * a many-core node whose containers fill its memory has little page cache to spare. 0 leaves
   * the machine's limits.
   */
  public static final String DIRTY_BYTES_KEY = "mpcache.tiers.dirty.bytes";
  public static final long DIRTY_BYTES_DEFAULT = 32L << 20;

  private TierConfigKeys() {
  }
}
