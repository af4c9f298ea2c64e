package org.mpcache.daemons;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.MpCacheConfiguration;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.InputCache;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.store.BlockFill;

/**
 * A real master and a real slave on loopback, with free ports and a 100 ms heartbeat: the
 * configurations this package's tests start from, and the daemons started from them. Stateless.
 */
final class LocalDaemons {

  private LocalDaemons() {
  }

  /** A master on a free loopback port (or {@code port}) that expires slaves after {@code expiryMs}. */
  /** The slaves' {@code fs.defaultFS}: a NameNode address on loopback nothing listens on. */
  static final String UNREACHABLE_HDFS = "hdfs://127.0.0.1:1";

  static Configuration masterConf(int port, long expiryMs) {
    Configuration mc = new Configuration();
    mc.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:" + port);
    mc.set(MasterConfigKeys.HTTP_ADDRESS_KEY, "127.0.0.1:0");
    mc.setLong(MasterConfigKeys.HEARTBEAT_INTERVAL_MS_KEY, 100);
    mc.setLong(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, expiryMs);
    return mc;
  }

  /** A slave of the master at {@code master} caching in {@code ssd}, on free loopback ports. */
  static Configuration slaveConf(InetSocketAddress master, Path ssd) {
    Configuration sc = new Configuration();
    sc.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY, "127.0.0.1:" + master.getPort());
    sc.set(SlaveConfigKeys.RPC_ADDRESS_KEY, "127.0.0.1:0");
    sc.set(SlaveConfigKeys.HOSTNAME_KEY, "127.0.0.1");
    sc.setBoolean(SlaveConfigKeys.FILL_VERIFY_KEY, false); // no NameNode to check fills' files
    // The cluster's HDFS, which lookups' paths must name: nothing listens on port 1, and one
    // connection attempt makes a fill the slave carries out itself fail at once.
    sc.set(FileSystem.FS_DEFAULT_NAME_KEY, UNREACHABLE_HDFS);
    sc.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    sc.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, ssd.toString());
    sc.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, "127.0.0.1:0");
    return sc;
  }

  /**
   * Starts a master; with no state directory unless {@code conf} names one, since the default,
   * under {@code hadoop.tmp.dir}, is shared by every master on the machine.
   */
  static MpCacheMaster startMaster(Configuration conf) {
    if (!MpCacheConfiguration.setByUser(conf, MasterConfigKeys.STATE_DIR_KEY)) {
      conf.set(MasterConfigKeys.STATE_DIR_KEY, MasterConfigKeys.STATE_DIR_NONE);
    }
    MpCacheMaster m = new MpCacheMaster();
    m.init(conf);
    m.start();
    return m;
  }

  static MpCacheSlave startSlave(Configuration conf) {
    MpCacheSlave s = new MpCacheSlave();
    s.init(conf);
    s.start();
    return s;
  }

  /** Waits up to 10 s for {@code condition}, else fails naming {@code what}. */
  static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    Waits.waitFor(condition, what);
  }

  /**
   * Caches {@code data} as the block {@code access} names, on {@code slave}, as the slave's own
   * fill of a reader's miss of {@code path} would with {@code data} for what it reads from HDFS
   * (these daemons have none): admitted by the master, written, committed and reported cached.
   * The block's file is not checked. Returns whether the block was admitted and cached.
   */
  static boolean fill(MpCacheSlave slave, BlockAccessProto access, String path, byte[] data)
      throws IOException {
    InputCache cache = new InputCache(slave.getStore(), slave.getCounters(),
        slave.getMasterLink());
    FillAdmission.Result a = new FillAdmission(cache, slave.getMasterLink(),
        (k, p, o, l) -> true).admit(FillRequest.of(access, path, 0));
    if (!a.admitted()) {
      return false;
    }
    BlockFill fill = a.fill();
    try {
      fill.append(0, ByteBuffer.wrap(data));
      fill.commit();
    } finally {
      fill.abort();
    }
    cache.cached(fill.key(), fill.datasetId());
    return true;
  }
}
