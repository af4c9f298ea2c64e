package org.mpcache.yarn;

/**
 * Configuration keys of mpCache's YARN integration, as KEY/DEFAULT pairs: what the NodeManager's
 * auxiliary service (yarn-site) and the map and reduce tasks (mapred-site or the job) read. Every key
 * is described in {@value #DEFAULT_RESOURCE} and {@code docs/operations.md}. Holds no state; thread-safe.
 */
public final class YarnIntegrationConfigKeys {

  /** The defaults file describing these keys, on the classpath in this module's jar. */
  public static final String DEFAULT_RESOURCE = "mpcache-yarn-default.xml";

  /** The name the auxiliary service is registered under in {@code yarn.nodemanager.aux-services}. */
  public static final String AUX_SERVICE_NAME = "mpcache_localized";

  /**
   * Where the slave beside this NodeManager serves {@code LocalizedProtocol} (host:port). Read by
   * the auxiliary service, which publishes it to the node's containers; tasks read it from the job
   * only when the auxiliary service is not configured.
   */
  public static final String LOCALIZED_ADDRESS_KEY = "mpcache.localized.address";
  public static final String LOCALIZED_ADDRESS_DEFAULT = "127.0.0.1:50031";

  /**
   * The factor a task applies to MapTask's and the merger's size estimates before it asks for SSD
   * room; above 1 so that the estimate errs high (IFile adds record lengths and checksums).
   */
  public static final String ESTIMATE_FACTOR_KEY = "mpcache.localized.estimate.factor";
  public static final double ESTIMATE_FACTOR_DEFAULT = 1.25;

  /**
   * A map spill's SSD room is asked for in steps as the spill is written, not by its estimate up
   * front (the records before the combiner, often several times what the spill writes): first the
   * smaller of the estimate and this many bytes, then as much again as the spill holds each time
   * it outgrows its room; a step the slave refuses moves the spill to the HDD dirs. 0 asks for
   * the whole estimate up front. Accepts a k/m/g suffix.
   */
  public static final String SPILL_STEP_BYTES_KEY = "mpcache.localized.spill.step.bytes";
  public static final long SPILL_STEP_BYTES_DEFAULT = 8L * 1024 * 1024;

  /**
   * The job's type in the master's Dynamic Space Manager history, which predicts a job's localized
   * space from earlier jobs of its type and input size. Empty: the job's name.
   */
  public static final String JOB_TYPE_KEY = "mpcache.localized.job.type";
  public static final String JOB_TYPE_DEFAULT = "";

  /** The connect and call timeout of the calls to the slave; on timeout the task uses its HDDs. */
  public static final String RPC_TIMEOUT_MS_KEY = "mpcache.localized.rpc.timeout.ms";
  public static final int RPC_TIMEOUT_MS_DEFAULT = 3000;

  /**
   * How often, in milliseconds, the NodeManager's auxiliary service sends the slave the
   * applications and containers running on the node: the slave ends the grants of any other, so
   * a finish notice that never arrived (a lost call, a slave down at the time) holds its SSD
   * room only until the next report.
   */
  public static final String RECONCILE_INTERVAL_MS_KEY = "mpcache.localized.reconcile.interval.ms";
  public static final long RECONCILE_INTERVAL_MS_DEFAULT = 60_000;

  /**
   * The usable bytes a localized file must leave free on the SSD dir's filesystem: a task writes to
   * the SSD only when the filesystem really has the file's estimated size plus this much, whatever
   * the slave granted (the NodeManager, other tasks and files the slave does not account share the
   * disk). Accepts a k/m/g suffix.
   */
  public static final String SSD_MARGIN_BYTES_KEY = "mpcache.localized.ssd.margin.bytes";
  public static final long SSD_MARGIN_BYTES_DEFAULT = 64L * 1024 * 1024;

  /**
   * Set by the tasks themselves: the task's local dirs that are not on the SSD, for the allocator
   * that places what the slave did not grant.
   */
  public static final String HDD_LOCAL_DIRS_KEY = "mpcache.localized.hdd.local.dirs";

  private YarnIntegrationConfigKeys() {
  }
}
