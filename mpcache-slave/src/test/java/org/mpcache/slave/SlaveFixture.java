package org.mpcache.slave;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.mpcache.common.BlockKey;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.slave.cache.FillAdmission;
import org.mpcache.slave.cache.FillRequest;
import org.mpcache.slave.cache.InputCache;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.slave.store.BlockFill;

/**
 * For tests that drive a real {@link MpCacheSlave} against a {@link FakeMaster} on loopback: starts
 * both with one small SSD dir (1 MiB of 256 KiB units: Input Cache 256 KiB, pool 2 units,
 * Localized 256 KiB), fill verification off (there is no NameNode to check fills' files), an RPC timeout
 * of {@link #RPC_TIMEOUT_MS}, {@link #UNREACHABLE_HDFS} as the cluster's HDFS, and opens a client-slave proxy to the slave; {@link #close} stops it
 * all. A test adjusts the configuration before the slave starts with a {@code Consumer} and may
 * supply its own slave (a subclass overriding a factory method).
 */
final class SlaveFixture implements AutoCloseable {
  static final int UNIT = 256 * 1024;
  static final int RPC_TIMEOUT_MS = 1_000;
  /** How long {@link #waitFor} waits at most. */
  static final long WAIT_MS = 60_000;
  /**
   * The fixture's {@code fs.defaultFS}: a NameNode address on loopback that nothing listens on
   * (port 1 needs root to bind), with one connection attempt, so that a fill the slave carries
   * out itself fails at once, as a fill whose HDFS read fails.
   */
  static final String UNREACHABLE_HDFS = "hdfs://127.0.0.1:1";

  private final Configuration conf = new Configuration();
  private final Supplier<MpCacheSlave> newSlave;
  private final FakeMaster master;
  private MpCacheSlave slave;
  private ClientSlaveProtocolPB client;
  private LocalizedProtocolClientSideTranslatorPB localized;

  /** Starts a fake master and a plain slave whose SSD dir is {@code dir}/ssd. */
  SlaveFixture(Path dir) throws IOException {
    this(dir, c -> { }, MpCacheSlave::new);
  }

  /**
   * Starts a fake master and the slave {@code newSlave} makes, after {@code adjust} has changed the
   * configuration; does not wait for the slave to register (see {@link #awaitRegistration}).
   */
  SlaveFixture(Path dir, Consumer<Configuration> adjust, Supplier<MpCacheSlave> newSlave)
      throws IOException {
    this.newSlave = newSlave;
    master = new FakeMaster(conf);
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        "127.0.0.1:" + master.address().getPort());
    conf.setInt(MpCacheConfigKeys.RPC_TIMEOUT_MS_KEY, RPC_TIMEOUT_MS);
    conf.set(SlaveConfigKeys.RPC_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(SlaveConfigKeys.HOSTNAME_KEY, "127.0.0.1");
    conf.setBoolean(SlaveConfigKeys.FILL_VERIFY_KEY, false);
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, UNREACHABLE_HDFS);
    conf.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    conf.set(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY, dir.resolve("ssd").toString());
    conf.setLong(SlaveConfigKeys.CACHE_CAPACITY_KEY, 4L * UNIT);
    conf.setLong(LocalizedConfigKeys.SPACE_UNIT_KEY, UNIT);
    conf.setDouble(LocalizedConfigKeys.INPUT_FRACTION_KEY, 0.25);
    conf.setDouble(LocalizedConfigKeys.LOCALIZED_FRACTION_KEY, 0.25);
    conf.set(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY, "127.0.0.1:0");
    adjust.accept(conf);
    try {
      startSlave(conf);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void startSlave(Configuration c) throws IOException {
    slave = newSlave.get();
    slave.init(c);
    slave.start();
    client = RpcSupport.proxy(ClientSlaveProtocolPB.class, clientAddress(), conf, 5_000);
  }

  /**
   * Stops the slave and starts a new one on the same configuration and SSD dir, with a new client
   * proxy; the old proxy and slave are no longer usable.
   */
  void restartSlave() throws IOException {
    slave.stop();
    RpcSupport.close(client);
    client = null;
    startSlave(new Configuration(conf));
  }

  /** The configuration the first slave was started with; a restarted one gets a copy. */
  Configuration conf() {
    return conf;
  }

  FakeMaster master() {
    return master;
  }

  MpCacheSlave slave() {
    return slave;
  }

  /** A client-slave proxy as the current user. */
  ClientSlaveProtocolPB client() {
    return client;
  }

  /** Where the slave serves the client-slave protocol. */
  InetSocketAddress clientAddress() {
    return new InetSocketAddress("127.0.0.1", slave.info().getClientPort());
  }

  /** A client of the slave's Localized protocol, opened on first use and closed by close(). */
  LocalizedProtocolClientSideTranslatorPB localized() throws IOException {
    if (localized == null) {
      localized = new LocalizedProtocolClientSideTranslatorPB(slave.getLocalizedAddress(), conf);
    }
    return localized;
  }

  @Override
  public void close() {
    if (localized != null) {
      localized.close();
    }
    RpcSupport.close(client);
    if (slave != null) {
      slave.stop();
    }
    master.close();
  }

  /**
   * Waits up to {@link #WAIT_MS} for {@code condition}, else fails naming {@code what}. Longer
   * than {@link Waits}'s own: a slave's first fill starts an HDFS client (of
   * {@link #UNREACHABLE_HDFS}), which takes a machine busy with other builds many seconds.
   */
  static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    Waits.waitFor(condition, WAIT_MS, what);
  }

  void awaitRegistration() throws InterruptedException {
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration with the fake master");
  }

  /** An access to {@code key} of {@code blockBytes} by job "job_" + dataset, to build on. */
  static BlockAccessProto.Builder access(BlockKeyProto key, long blockBytes, String dataset,
      int datasetBlocks) {
    return BlockAccessProto.newBuilder().setBlock(key).setBlockBytes(blockBytes)
        .setDatasetId(dataset).setDatasetBlocks(datasetBlocks).setJobId("job_" + dataset);
  }

  static BlockAccessProto.Builder access(BlockKey key, long blockBytes, String dataset,
      int datasetBlocks) {
    return access(ProtoConverters.toProto(key), blockBytes, dataset, datasetBlocks);
  }

  /** Block {@code id} of pool BP-1, generation stamp 1. */
  static BlockKey key(long id) {
    return new BlockKey("BP-1", id, 1);
  }

  /** An access to {@link #key(long) block id} of {@code blockBytes} in dataset /d of 3 blocks. */
  static BlockAccessProto access(long id, int blockBytes) {
    return access(key(id), blockBytes, "/d", 3).build();
  }

  /** Caches {@link #key(long) block id}, {@code blockBytes} of bytes seeded by {@code id}. */
  boolean fillRandom(long id, int blockBytes) throws IOException {
    byte[] data = new byte[blockBytes];
    new Random(id).nextBytes(data);
    return fill(access(id, blockBytes), data);
  }

  /**
   * Fills {@code data} in as the slave's own fill of a reader's miss would, with {@code data} for
   * what it reads from HDFS (the fixture has none): admitted through {@link FillAdmission} (the
   * master must admit it), written, committed and reported cached. Returns whether the commit
   * cached the block; a fill the store refuses to commit is aborted, as the filler aborts it.
   */
  boolean fill(BlockAccessProto access, byte[] data) throws IOException {
    FillAdmission.Result a = admission().admit(
        FillRequest.of(access, UNREACHABLE_HDFS + "/f", 0));
    assertTrue(a.admitted(), () -> "admitted: " + a.missReason());
    return write(a.fill(), data);
  }

  /**
   * The admission the slave's fills go through, on this slave's store and master link; the
   * block's file is not checked (there is no NameNode).
   */
  FillAdmission admission() {
    return new FillAdmission(inputCache(), slave.getMasterLink(), (k, p, o, l) -> true);
  }

  /** The Input Cache of this slave, as its services change it. */
  InputCache inputCache() {
    return new InputCache(slave.getStore(), slave.getCounters(), slave.getMasterLink());
  }

  /**
   * Writes {@code data} into {@code fill} and commits it, reporting the block cached; false, and
   * the fill aborted, when the store fails the write or the commit.
   */
  boolean write(BlockFill fill, byte[] data) {
    try {
      fill.append(0, ByteBuffer.wrap(data));
      fill.commit();
    } catch (IOException e) {
      fill.abort();
      return false;
    }
    inputCache().cached(fill.key(), fill.datasetId());
    return true;
  }
}
