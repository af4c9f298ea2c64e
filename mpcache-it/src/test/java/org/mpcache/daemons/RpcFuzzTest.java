package org.mpcache.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.mpcache.daemons.LocalDaemons.waitFor;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.Descriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.EnumDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.EnumValueDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.FieldDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.ClientSlaveProtos.FallbackCauseProto;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ApplicationFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerStartedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ReportRetainedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceResponseProto;
import org.mpcache.common.proto.LocalizedProtos.ReturnSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RunningOnNodeRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpacePredictionProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceQueryProto;
import org.mpcache.common.proto.MpCacheProtos.JobSpaceUsageProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.proto.MpCacheProtos.SsdDirProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.DatasetCountersProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.CachedBlockProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.MpCacheMaster;
import org.mpcache.slave.MpCacheSlave;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.store.FileBlockStore;

/**
 * RPC fuzzing of every method of the client-slave, localized and slave-master protocols, against
 * a real master and slave on loopback. Requests go as raw protobuf through the PB proxies, so that
 * values the Java clients would never send still arrive.
 *
 * <p>The cases are generated: for each method, a valid base request (with what it needs set up:
 * a localized grant, a registered slave) and, for every field of the
 * request, including the fields of its sub-messages, the values of that field's kind: negative,
 * zero, 2^31, {@code Long.MAX_VALUE} and 2^64-1 numbers; empty, NUL-containing, 64 KiB,
 * path-like and invalid UTF-8 text; missing sub-messages;
 * repeated fields with thousands of items; ids whose keys do not match. Each case expects a
 * remote error naming the field, or a well-defined answer where the value is legal but extreme.
 * {@link #everyMethodAndFieldHasCases} fails when a protocol gains a method or a field that has
 * no cases here.
 *
 * <p>Around each case the state is compared: the slave's cached blocks and their bytes (read back
 * over RPC), its Input Cache and Localized Cache usage, the master's registrations, their blocks
 * and the datasets holding cached blocks.
 * A refused request must change nothing at all (the master's dataset verdicts and space history
 * included); an answered one must leave the same state once what it legitimately started (a
 * grant, a registration) is ended again.
 */
class RpcFuzzTest {
  private static final int BLOCK = 200_000;
  private static final int SMALL = 4096;
  private static final BlockKey CACHED = new BlockKey("BP-fuzz", 1, 5);
  private static final String DATASET = "/fuzz/data";
  /** The dataset of the slave-master cases, which may change its size and verdicts at will. */
  private static final String FUZZ_DATASET = "/fuzz/other";
  /** A file of {@link #DATASET} on the slave's own HDFS. */
  private static final String OWN_FILE = "hdfs://fuzzns" + DATASET + "/part-0";
  private static final String APP = "application_1_0001";
  private static final String CONTAINER = "container_1_0001_01_000002";
  private static final String ATTEMPT = "attempt_1_0001_m_000000_0";
  private static final String FUZZ_SLAVE = "fuzz-slave:9";
  private static final int MANY = 5_000;

  private static final long TWO_31 = 1L << 31;
  /** 2^63 and 2^64-1 on the wire, which Java reads as negative longs. */
  private static final long TWO_63 = Long.MIN_VALUE;
  private static final long TWO_64_MINUS_1 = -1L;
  private static final String OVERLONG = "a".repeat(64 * 1024);
  private static final ByteString INVALID_UTF8 = ByteString.copyFrom(new byte[] {'x',
      (byte) 0xC3, (byte) 0x28, (byte) 0xFF});

  @TempDir
  static Path dir;
  private static MpCacheMaster master;
  private static MpCacheSlave slave;
  private static String slaveId;
  private static ClientSlaveProtocolPB client;
  private static LocalizedProtocolPB localized;
  private static SlaveMasterProtocolPB masterRpc;
  private static byte[] cachedBytes;
  private static String grantDir;
  private static long nextBlockId = 1_000;

  // ---------------------------------------------------------------------------------------------
  // The daemons and the state the cases must not change.

  @BeforeAll
  static void start() throws Exception {
    Configuration mc = LocalDaemons.masterConf(0, 600_000);
    mc.set(MasterConfigKeys.SPACE_HISTORY_FILE_KEY, dir.resolve("history").toString());
    // The fuzzed slave hosts resolve nowhere: the cases are about the messages, not the host.
    mc.setBoolean(MasterConfigKeys.SLAVE_IP_CHECK_KEY, false);
    master = LocalDaemons.startMaster(mc);
    Configuration sc = LocalDaemons.slaveConf(master.getRpcAddress(), dir.resolve("ssd"));
    sc.set(SlaveConfigKeys.CACHE_CAPACITY_KEY, "16m");
    // The slave's own HDFS is a nameservice only, so that the fuzzed lookups' bare paths lie on
    // fs.defaultFS, another file system, and are refused before any fill is queued: a fill
    // running beside the later cases would change what they compare.
    sc.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
    sc.set(HdfsClientConfigKeys.DFS_NAMESERVICES, "fuzzns");
    sc.set(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + ".fuzzns", "127.0.0.1:1");
    // A fill a case's lookup queues (it names a file of the nameservice) is
    // held off past the run's end, so that none asks the master for admission beside a later
    // case; the queue holds them all.
    sc.setLong(SlaveConfigKeys.FILL_QUIET_MS_KEY, 600_000);
    sc.setLong(SlaveConfigKeys.FILL_MAX_DELAY_MS_KEY, 600_000);
    sc.setInt(SlaveConfigKeys.SLAVE_FILL_QUEUE_KEY, 100_000);
    slave = LocalDaemons.startSlave(sc);
    waitFor(() -> slave.getMasterLink().isRegistered(), "registration");
    slaveId = slave.info().getSlaveId();
    InetSocketAddress slaveAddr = new InetSocketAddress("127.0.0.1", slave.info().getClientPort());
    client = RpcSupport.proxy(ClientSlaveProtocolPB.class, slaveAddr, mc, 30_000);
    localized = RpcSupport.proxy(LocalizedProtocolPB.class, slave.getLocalizedAddress(), mc,
        30_000);
    masterRpc = RpcSupport.proxy(SlaveMasterProtocolPB.class, master.getRpcAddress(), mc, 30_000);

    // A cached block and a task's grant.
    cachedBytes = new byte[BLOCK];
    new Random(12).nextBytes(cachedBytes);
    assertTrue(LocalDaemons.fill(slave, access(CACHED, BLOCK), OWN_FILE, cachedBytes));
    waitFor(() -> master.getSlaveRegistry().blocksOf(slaveId).contains(CACHED),
        "the master knows the cached block");
    RequestSpaceResponseProto g = RpcSupport.call(() -> localized.requestSpace(null,
        RequestSpaceRequestProto.newBuilder().setApplicationId(APP).setContainerId(CONTAINER)
            .setAttemptId(ATTEMPT).setBytes(SMALL).build()));
    assertTrue(g.getGranted(), "the base grant");
    grantDir = g.getDir();
  }

  @AfterAll
  static void stop() {
    RpcSupport.close(client);
    RpcSupport.close(localized);
    RpcSupport.close(masterRpc);
    if (slave != null) {
      slave.stop();
    }
    if (master != null) {
      master.stop();
    }
  }

  private static BlockAccessProto access(BlockKey key, long bytes) {
    return access(key, bytes, DATASET);
  }

  private static BlockAccessProto access(BlockKey key, long bytes, String dataset) {
    return BlockAccessProto.newBuilder().setBlock(ProtoConverters.toProto(key))
        .setBlockBytes(bytes).setDatasetId(dataset).setDatasetBlocks(4).setJobId("job_1_0001")
        .build();
  }

  /**
   * What the cases must leave alone. {@code all} adds what only a refused request must not change
   * (an answered one may add a verdict to a dataset, or a job to the space history).
   */
  private static Map<String, Object> snapshot(boolean all) throws IOException {
    Map<String, Object> s = new LinkedHashMap<>();
    FileBlockStore store = slave.getStore();
    List<BlockKey> blocks = new ArrayList<>(store.cachedBlocks());
    s.put("slave.cachedBlocks", new TreeSet<>(blocks));
    for (BlockKey k : blocks) {
      s.put("slave.bytes " + k, Arrays.hashCode(readBack(k, store.cachedLength(k))));
    }
    s.put("slave.space", slave.getLocalizedCache().snapshot());
    SlaveCountersProto c = slave.getCounters().snapshot();
    s.put("slave.blocksEvictedOrCorrupt", c.getBlocksEvicted() + "/" + c.getBlocksCorrupt());
    s.put("master.slaves", master.getSlaveRegistry().liveSlaves());
    s.put("master.deadSlaves", master.getSlaveRegistry().deadCount());
    for (SlaveReportProto r : master.getSlaveRegistry().report()) {
      String id = r.getSlave().getSlaveId();
      // Counters and predictions in use are figures each heartbeat replaces.
      SlaveReportProto.Builder b = r.toBuilder().clearLastHeartbeatAgeMs().clearLastHeartbeatMs()
          .clearCounters().clearPredictions();
      if (id.equals(slaveId)) {
        b.clearSpace(); // the real slave's heartbeats may carry a fill a case just started
      }
      s.put("master.report " + id, b.buildPartial());
      s.put("master.blocks " + id, new TreeSet<>(master.getSlaveRegistry().blocksOf(id)));
    }
    for (DatasetStatusProto d : master.getStatus().datasets("")) {
      // The slaves' figures, as their counters, are what each heartbeat brings.
      DatasetStatusProto.Builder b = d.toBuilder().clearPriority().clearFrequency()
          .clearLastAccessMs().clearLastJob().clearHits().clearMisses().clearBytesFromCache()
          .clearBytesFromHdfs().clearFills().clearEvictions().clearByteHitRatio();
      if (all) {
        s.put("master.dataset " + d.getDatasetId(), b.buildPartial());
      } else if (d.getCachedBlocks() > 0) {
        s.put("master.dataset " + d.getDatasetId(), b.clearLastVerdict().clearVerdicts()
            .clearFillingBlocks().buildPartial());
      }
    }
    if (all) {
      s.put("master.spaceHistory", master.getSpaceManager().size());
    }
    return s;
  }

  private static byte[] readBack(BlockKey k, long length) throws IOException {
    byte[] out = new byte[(int) length];
    int done = 0;
    while (done < length) {
      int at = done;
      ReadResponseProto r = RpcSupport.call(() -> client.read(null, ReadRequestProto.newBuilder()
          .setBlock(ProtoConverters.toProto(k)).setOffset(at).setLength((int) length - at)
          .build()));
      byte[] data = r.getData().toByteArray();
      int skip = (int) (at - r.getOffset());
      System.arraycopy(data, skip, out, at, data.length - skip);
      done = (int) r.getOffset() + data.length;
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // The cases.

  /** What must come of a case: a refusal naming a field, or an answer that passes a check. */
  private record Expect(String errorNaming, Predicate<Message> answer, String what) {
    static Expect refused(String field) {
      return new Expect(field, null, "refused naming " + field);
    }

    static Expect answered(String what, Predicate<Message> check) {
      return new Expect(null, check, what);
    }

    static Expect answered() {
      return answered("an answer", m -> true);
    }
  }

  /**
   * A request made valid for one method, with what it needs: {@code setUp} creates it (a fill of
   * the caller's, a registered slave...), {@code tearDown} ends what the case may have left.
   */
  private interface Base {
    Message.Builder setUp() throws IOException;

    default void tearDown(Message.Builder request, Message response) throws IOException {
    }
  }

  /** One generated case. */
  private record Case(String method, String field, String value, Consumer<Message.Builder> mutate,
      Expect expect) {
    @Override
    public String toString() {
      return method + " " + field + "=" + value + " -> " + expect.what();
    }
  }

  /** The values of one kind of field, each with what must come of it. */
  private interface Kind {
    void cases(String method, String field, List<Case> out);
  }

  private static final Object MISSING = new Object();

  /** An unsigned number accepted in {@code [min, max]} (as unsigned; 2^63 and up are refused). */
  private static Kind number(long min, long max, boolean uint32) {
    return number(min, max, uint32, Expect.answered());
  }

  /** As {@link #number(long, long, boolean)}; values in range get {@code inRange}. */
  private static Kind number(long min, long max, boolean uint32, Expect inRange) {
    return (method, field, out) -> {
      long[] values = uint32 ? new long[] {0, 1, Integer.MAX_VALUE, TWO_31, 0xFFFF_FFFFL}
          : new long[] {0, 1, TWO_31, Long.MAX_VALUE, TWO_63, TWO_64_MINUS_1};
      for (long v : values) {
        boolean ok = Long.compareUnsigned(v, min) >= 0 && Long.compareUnsigned(v, max) <= 0;
        Object wire = uint32 ? (Object) (int) v : (Object) v;
        out.add(new Case(method, field, Long.toUnsignedString(v), b -> set(b, field, wire),
            ok ? inRange : Expect.refused(leaf(field))));
      }
    };
  }

  /** A number whose every value gets an answer (block ids, which HDFS also makes negative). */
  private static Kind anyNumber() {
    return (method, field, out) -> {
      for (long v : new long[] {0, TWO_31, Long.MAX_VALUE, TWO_63, TWO_64_MINUS_1}) {
        out.add(new Case(method, field, Long.toUnsignedString(v), b -> set(b, field, v),
            Expect.answered()));
      }
    };
  }

  /** Malformed text values: empty (when required), NUL, control characters, 64 KiB, bad UTF-8. */
  private static Kind text(boolean required, String... moreBad) {
    return (method, field, out) -> {
      Map<String, Object> bad = new LinkedHashMap<>();
      bad.put("NUL", "id\u0000x");
      bad.put("newline", "id\nforged 1 2 3");
      bad.put("carriage-return", "id\rforged");
      bad.put("64KiB", OVERLONG);
      bad.put("invalid-UTF-8", INVALID_UTF8);
      for (String m : moreBad) {
        bad.put("'" + m + "'", m);
      }
      bad.forEach((name, v) -> out.add(new Case(method, field, name, b -> set(b, field, v),
          Expect.refused(leaf(field)))));
      out.add(new Case(method, field, "empty", b -> set(b, field, ""),
          required ? Expect.refused(leaf(field)) : Expect.answered()));
    };
  }

  /** Text whose value the server ignores or only logs (block tokens when HDFS issues none). */
  private static Kind anyText() {
    return (method, field, out) -> {
      for (Object v : new Object[] {"", "t\u0000k", OVERLONG, INVALID_UTF8}) {
        out.add(new Case(method, field, describe(v), b -> set(b, field, v), Expect.answered()));
      }
    };
  }

  /** A required sub-message: its absence is refused naming it. */
  private static Kind required() {
    return (method, field, out) -> out.add(new Case(method, field, "missing",
        b -> set(b, field, MISSING), Expect.refused(leaf(field))));
  }

  /**
   * An enum: each value is answered, and so is a value the server's enum lacks (a newer
   * sender's), which protobuf keeps among the unknown fields.
   */
  private static Kind enumValues(EnumDescriptor type) {
    return (method, field, out) -> {
      for (EnumValueDescriptor v : type.getValues()) {
        out.add(new Case(method, field, v.getName(), b -> set(b, field, v), Expect.answered()));
      }
      out.add(new Case(method, field, "unknown 999", b -> {
        Message.Builder h = holder(b, field);
        FieldDescriptor f = field(h, field);
        h.clearField(f);
        h.setUnknownFields(UnknownFieldSet.newBuilder(h.getUnknownFields()).addField(
            f.getNumber(), UnknownFieldSet.Field.newBuilder().addVarint(999).build()).build());
      }, Expect.answered()));
    };
  }

  /** A boolean: both values are answered. */
  private static Kind bool() {
    return (method, field, out) -> {
      for (boolean v : new boolean[] {true, false}) {
        out.add(new Case(method, field, Boolean.toString(v), b -> set(b, field, v),
            Expect.answered()));
      }
    };
  }

  /** A repeated field: thousands of {@code item}s get {@code many}; one {@code bad} gets its own. */
  private static Kind repeated(Message item, Expect many, Message bad, Expect badExpect) {
    return (method, field, out) -> {
      out.add(new Case(method, field, MANY + " items", b -> {
        for (int i = 0; i < MANY; i++) {
          add(b, field, withIndex(item, i));
        }
      }, many));
      if (bad != null) {
        out.add(new Case(method, field, "a malformed item", b -> add(b, field, bad), badExpect));
      }
    };
  }

  /** Explicit values of one field, each with its expectation. */
  private static Kind values(Object... valueThenExpect) {
    return (method, field, out) -> {
      for (int i = 0; i < valueThenExpect.length; i += 2) {
        Object v = valueThenExpect[i];
        out.add(new Case(method, field, describe(v), b -> set(b, field, v),
            (Expect) valueThenExpect[i + 1]));
      }
    };
  }

  private static Kind both(Kind a, Kind b) {
    return (method, field, out) -> {
      a.cases(method, field, out);
      b.cases(method, field, out);
    };
  }

  private static final Kind POOL_ID = text(true, "a/b", "..", "BP-" + "9".repeat(300));
  private static final Kind UINT64 = number(0, Long.MAX_VALUE, false);
  private static final Kind ID = text(true);
  private static final Kind OPTIONAL_ID = text(false);

  /** The fields of a read report under {@code prefix} ("" for reportRead's own). */
  private static Map<String, Kind> readReport(String prefix) {
    Map<String, Kind> m = new LinkedHashMap<>(blockKey(prefix + "block", Expect.answered()));
    m.put(prefix + "bytesFromHdfs", number(0, 2L << 30, false));
    m.put(prefix + "fallback", enumValues(FallbackCauseProto.getDescriptor()));
    m.put(prefix + "datasetId", ID);
    m.put(prefix + "blockToken", anyText());
    return m;
  }

  /** {@code kind}'s values, each answered: the field of a part the server drops when bad. */
  private static Kind dropped(Kind kind) {
    return (method, field, out) -> {
      List<Case> cases = new ArrayList<>();
      kind.cases(method, field, cases);
      cases.forEach(c -> out.add(new Case(c.method(), c.field(), c.value(), c.mutate(),
          Expect.answered())));
    };
  }

  /** The block key fields under {@code prefix}; an unknown key gets {@code unknownKey}. */
  private static Map<String, Kind> blockKey(String prefix, Expect unknownKey) {
    Map<String, Kind> m = new LinkedHashMap<>();
    m.put(prefix, required());
    m.put(prefix + ".blockPoolId", POOL_ID);
    m.put(prefix + ".blockId", unknownKey.errorNaming() == null ? anyNumber()
        : (method, field, out) -> out.add(new Case(method, field, "unknown",
            b -> set(b, field, 77_777L), unknownKey)));
    m.put(prefix + ".generationStamp", number(0, Long.MAX_VALUE, false, unknownKey));
    return m;
  }

  /** The fields of a block access under {@code prefix}. */
  private static Map<String, Kind> blockAccess(String prefix) {
    Map<String, Kind> m = new LinkedHashMap<>();
    m.put(prefix, required());
    m.putAll(blockKey(prefix + ".block", Expect.answered()));
    m.put(prefix + ".blockBytes", number(1, 2L << 30, false));
    m.put(prefix + ".datasetId", ID);
    m.put(prefix + ".datasetBlocks", number(1, Integer.MAX_VALUE, true));
    // At most what the base access's 4 dataset blocks can hold.
    m.put(prefix + ".datasetBytes", number(0, 4 * RequestChecks.MAX_BLOCK_BYTES, false));
    m.put(prefix + ".jobId", OPTIONAL_ID);
    return m;
  }

  private static Map<String, Kind> spaceReport(String prefix) {
    Map<String, Kind> m = new LinkedHashMap<>();
    m.put(prefix, required());
    for (FieldDescriptor f : SpaceReportProto.getDescriptor().getFields()) {
      if (!f.isRepeated()) {
        m.put(prefix + "." + f.getName(), UINT64);
      }
    }
    SsdDirProto dir = FuzzSlave.space().getDirs(0);
    m.put(prefix + ".dirs", repeated(dir, Expect.refused("dirs"),
        dir.toBuilder().setDir("").build(), Expect.refused("dir")));
    m.put(prefix + ".dirs.dir", text(true));
    m.put(prefix + ".dirs.inService", bool());
    m.put(prefix + ".dirs.cause", text(false));
    m.put(prefix + ".dirs.outSinceMs", UINT64);
    m.put(prefix + ".dirs.recentFaults", number(0, 0xFFFF_FFFFL, true));
    return m;
  }

  /** One method: its base request and the kind of each of its fields. */
  private record MethodCases(String protocol, String method, Base base, Map<String, Kind> fields) {
  }

  private static List<MethodCases> methods() {
    List<MethodCases> all = new ArrayList<>();
    Expect notCached = Expect.refused("not cached");

    // client -> slave
    Map<String, Kind> lookup = new LinkedHashMap<>(blockAccess("access"));
    lookup.put("ahead", bool());
    lookup.put("blockToken", anyText());
    lookup.put("path", text(true));
    lookup.put("blockOffset", number(0, Long.MAX_VALUE, false));
    // A carried read report the slave refuses is dropped and the lookup answered; one without
    // its block is malformed as a whole, as any request missing a required field is.
    // More reports than a lookup may carry refuse it whole.
    ReportReadRequestProto report = ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(CACHED)).setBytesFromHdfs(100).build();
    lookup.put("previousRead", both(values(MISSING, Expect.answered()),
        repeated(report, Expect.refused("previousRead"), null, null)));
    readReport("previousRead.").forEach((field, kind) -> lookup.put(field,
        field.equals("previousRead.block") ? kind : dropped(kind)));
    // Following blocks: more than a lookup may name refuse it whole; a malformed one is
    // answered MISS on its own and the lookup answered.
    FollowingBlockProto next = FollowingBlockProto.newBuilder()
        .setAccess(access(new BlockKey("BP-fuzz", 20_000, 1), SMALL)).setBlockOffset(0).build();
    lookup.put("following", repeated(next, Expect.refused("following"), next.toBuilder()
        .setAccess(next.getAccess().toBuilder().setBlock(badKey())).build(), Expect.answered()));
    all.add(new MethodCases("ClientSlave", "lookup", () -> LookupRequestProto.newBuilder()
        .setAccess(access(fresh(), SMALL)).addPreviousRead(report), lookup));

    Map<String, Kind> read = new LinkedHashMap<>(blockKey("block", notCached));
    read.put("offset", number(0, BLOCK, false));
    read.put("length", number(0, Integer.MAX_VALUE, true));
    read.put("blockToken", anyText());
    all.add(new MethodCases("ClientSlave", "read", () -> ReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(CACHED)).setOffset(0).setLength(1000), read));

    all.add(new MethodCases("ClientSlave", "reportRead", () -> ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(CACHED)).setBytesFromHdfs(100), readReport("")));

    Map<String, Kind> reportCorrupt = new LinkedHashMap<>(blockKey("block", Expect.answered()));
    reportCorrupt.put("reason", anyText());
    reportCorrupt.put("blockToken", anyText());
    all.add(new MethodCases("ClientSlave", "reportCorrupt", () -> ReportCorruptRequestProto
        .newBuilder().setBlock(ProtoConverters.toProto(CACHED)).setReason("checksum mismatch"),
        reportCorrupt));

    // task / NodeManager -> slave
    Expect belongsElsewhere = Expect.refused("attemptId");
    Map<String, Kind> requestSpace = new LinkedHashMap<>();
    requestSpace.put("applicationId", ID);
    requestSpace.put("containerId", ID);
    requestSpace.put("attemptId", both(ID, values(ATTEMPT, belongsElsewhere)));
    requestSpace.put("bytes", number(1, Long.MAX_VALUE, false));
    // The base job is undescribed, so that no case sends a job to the master's space history
    // behind the snapshots' backs (the slave reports it with a later heartbeat).
    requestSpace.put("jobType", OPTIONAL_ID);
    requestSpace.put("jobInputBytes", UINT64);
    all.add(new MethodCases("Localized", "requestSpace", new Base() {
      @Override
      public Message.Builder setUp() {
        return RequestSpaceRequestProto.newBuilder().setApplicationId("application_2_0002")
            .setContainerId("container_2_0002_01_000002")
            .setAttemptId("attempt_2_0002_m_000000_0").setBytes(SMALL);
      }

      @Override
      public void tearDown(Message.Builder request, Message response) throws IOException {
        endApplication("application_2_0002");
      }
    }, requestSpace));

    // A retained output and a grant given back: the same fields, on an application of their own.
    for (String method : List.of("reportRetained", "returnSpace")) {
      String n = method.equals("reportRetained") ? "3_0003" : "4_0004";
      Map<String, Kind> fields = new LinkedHashMap<>();
      fields.put("applicationId", both(ID, values("application_9_0009",
          Expect.refused("applicationId"))));
      fields.put("containerId", both(ID, values("container_9_0009_01_000002",
          Expect.refused("containerId"))));
      fields.put("attemptId", both(ID, values(ATTEMPT, Expect.refused("attemptId"))));
      fields.put("dir", both(ID, values("/no/such/place", Expect.refused("dir"))));
      fields.put("bytes", UINT64);
      all.add(new MethodCases("Localized", method, new Base() {
        @Override
        public Message.Builder setUp() throws IOException {
          String app = "application_" + n;
          String container = "container_" + n + "_01_000002";
          String attempt = "attempt_" + n + "_m_000000_0";
          String dir = RpcSupport.call(() -> localized.requestSpace(null,
              RequestSpaceRequestProto.newBuilder().setApplicationId(app)
                  .setContainerId(container).setAttemptId(attempt).setBytes(SMALL).build()))
              .getDir();
          return method.equals("reportRetained")
              ? ReportRetainedRequestProto.newBuilder().setApplicationId(app)
                  .setContainerId(container).setAttemptId(attempt).setDir(dir)
                  .setBytes(SMALL / 2)
              : ReturnSpaceRequestProto.newBuilder().setApplicationId(app)
                  .setContainerId(container).setAttemptId(attempt).setDir(dir)
                  .setBytes(SMALL / 2);
        }

        @Override
        public void tearDown(Message.Builder request, Message response) throws IOException {
          endApplication("application_" + n);
        }
      }, fields));
    }

    Map<String, Kind> containerStarted = new LinkedHashMap<>();
    containerStarted.put("containerId", both(ID, values("container_7_0007_01_000002",
        Expect.answered())));
    containerStarted.put("applicationId", both(ID, values("application_7_0007",
        Expect.answered())));
    containerStarted.put("user", both(ID, values("alice", Expect.answered())));
    all.add(new MethodCases("Localized", "containerStarted", new Base() {
      @Override
      public Message.Builder setUp() {
        return ContainerStartedRequestProto.newBuilder()
            .setContainerId("container_7_0007_01_000002").setApplicationId("application_7_0007")
            .setUser("alice");
      }

      @Override
      public void tearDown(Message.Builder request, Message response) throws IOException {
        endApplication("application_7_0007");
      }
    }, containerStarted));

    Map<String, Kind> containerFinished = new LinkedHashMap<>();
    containerFinished.put("containerId", both(ID, values("container_8_0008_01_000002",
        Expect.answered())));
    all.add(new MethodCases("Localized", "containerFinished",
        () -> ContainerFinishedRequestProto.newBuilder().setContainerId(
            "container_8_0008_01_000002"), containerFinished));

    Map<String, Kind> applicationFinished = new LinkedHashMap<>();
    applicationFinished.put("applicationId", both(ID, values("application_8_0008",
        Expect.answered())));
    all.add(new MethodCases("Localized", "applicationFinished",
        () -> ApplicationFinishedRequestProto.newBuilder().setApplicationId("application_8_0008"),
        applicationFinished));

    Map<String, Kind> runningOnNode = new LinkedHashMap<>();
    runningOnNode.put("applicationIds", both(
        repeatedText("applicationIds", "application_9_", Expect.answered()), text(true)));
    runningOnNode.put("containerIds", both(
        repeatedText("containerIds", "container_9_0009_01_", Expect.answered()), text(true)));
    // Lists the base grant's application and container: the report ends nothing.
    all.add(new MethodCases("Localized", "runningOnNode",
        () -> RunningOnNodeRequestProto.newBuilder().addApplicationIds(APP)
            .addContainerIds(CONTAINER), runningOnNode));

    // slave -> master
    Map<String, Kind> register = new LinkedHashMap<>();
    register.put("slave", required());
    register.put("slave.slaveId", ID);
    register.put("slave.host", ID);
    register.put("slave.clientPort", number(1, 65_535, true));
    register.put("slave.datanodeAddress", OPTIONAL_ID);
    register.put("slave.version", OPTIONAL_ID);
    register.put("slave.streamPort", number(1, 65_535, true));
    register.putAll(spaceReport("space"));
    CachedBlockProto held = CachedBlockProto.newBuilder()
        .setBlock(ProtoConverters.toProto(new BlockKey("BP-fuzz", 0, 1))).setLength(SMALL)
        .setDatasetId(FUZZ_DATASET).setDatasetBlocks(1).build();
    register.put("cachedBlocks", repeated(held, Expect.answered(),
        held.toBuilder().setBlock(badKey()).build(), Expect.refused("blockPoolId")));
    register.putAll(blockKey("cachedBlocks.block", Expect.answered()));
    // Lengths past the slave's Input Cache capacity are handed back too.
    register.put("cachedBlocks.length", values(0L, HANDED_BACK, 1L, ADOPTED, (long) SMALL, ADOPTED,
        RequestChecks.MAX_BLOCK_BYTES, HANDED_BACK, Long.MAX_VALUE, HANDED_BACK, TWO_63,
        HANDED_BACK, TWO_64_MINUS_1, HANDED_BACK));
    register.put("cachedBlocks.datasetId", handedBackWhenRefused(ID));
    register.put("cachedBlocks.datasetBlocks", handedBackWhenRefused(
        number(1, Integer.MAX_VALUE, true)));
    register.put("cachedBlocks.file", handedBackWhenRefused(OPTIONAL_ID));
    all.add(new MethodCases("SlaveMaster", "registerSlave", new FuzzSlave() {
      @Override
      public Message.Builder setUp() {
        return registration().addCachedBlocks(held);
      }
    }, register));

    Map<String, Kind> heartbeat = new LinkedHashMap<>();
    heartbeat.put("slaveId", ID);
    heartbeat.putAll(spaceReport("space"));
    heartbeat.put("counters", required());
    for (FieldDescriptor f : SlaveCountersProto.getDescriptor().getFields()) {
      heartbeat.put("counters." + f.getName(), UINT64);
    }
    JobSpaceUsageProto job = JobSpaceUsageProto.newBuilder().setJobType("fuzz-job")
        .setInputBytes(1).setLocalizedBytes(1).build();
    heartbeat.put("finishedJobs", repeated(job, Expect.answered(),
        job.toBuilder().setJobType("").build(), Expect.refused("jobType")));
    heartbeat.put("finishedJobs.jobType", ID);
    heartbeat.put("finishedJobs.inputBytes", UINT64);
    heartbeat.put("finishedJobs.localizedBytes", UINT64);
    JobSpaceQueryProto query = JobSpaceQueryProto.newBuilder().setJobType("fuzz-job")
        .setInputBytes(1).build();
    heartbeat.put("startedJobs", repeated(query, Expect.refused("startedJobs"),
        query.toBuilder().setJobType("").build(), Expect.refused("jobType")));
    heartbeat.put("startedJobs.jobType", ID);
    heartbeat.put("startedJobs.inputBytes", UINT64);
    JobSpacePredictionProto inUse = JobSpacePredictionProto.newBuilder().setJobType("fuzz-job")
        .setInputBytes(1).setLocalizedBytes(1).setFromHistory(true).build();
    heartbeat.put("predictionsInUse", repeated(inUse, Expect.refused("predictionsInUse"),
        inUse.toBuilder().setJobType("").build(), Expect.refused("jobType")));
    heartbeat.put("predictionsInUse.jobType", ID);
    heartbeat.put("predictionsInUse.inputBytes", UINT64);
    heartbeat.put("predictionsInUse.localizedBytes", UINT64);
    heartbeat.put("predictionsInUse.fromHistory", bool());
    DatasetCountersProto figures = DatasetCountersProto.newBuilder().setDatasetId("/fuzz/figures")
        .setSinceMs(1).setHits(1).setMisses(1).setBytesFromCache(1).setBytesFromHdfs(1)
        .setFills(1).setEvictions(1).build();
    heartbeat.put("datasets", repeated(figures, Expect.answered(),
        figures.toBuilder().setDatasetId("").build(), Expect.refused("datasetId")));
    heartbeat.put("datasets.datasetId", ID);
    for (FieldDescriptor f : DatasetCountersProto.getDescriptor().getFields()) {
      if (f.getType() == FieldDescriptor.Type.UINT64) {
        heartbeat.put("datasets." + f.getName(), UINT64);
      }
    }
    all.add(new MethodCases("SlaveMaster", "heartbeat", new FuzzSlave() {
      @Override
      Message.Builder request() {
        return HeartbeatRequestProto.newBuilder().setSlaveId(FUZZ_SLAVE).setSpace(space())
            .setCounters(SlaveCountersProto.newBuilder().setHits(0).setMisses(0)
                .setBytesFromCache(0).setBytesFromHdfs(0).setFallbacks(0).setBlocksCached(0)
                .setBlocksEvicted(0).setBlocksCorrupt(0)).addFinishedJobs(job)
            .addStartedJobs(query).addPredictionsInUse(inUse).addDatasets(figures);
      }
    }, heartbeat));

    Map<String, Kind> blockReport = new LinkedHashMap<>();
    blockReport.put("slaveId", ID);
    Message key = ProtoConverters.toProto(new BlockKey("BP-fuzz", 0, 1));
    blockReport.put("cached", repeated(key, Expect.answered(), badKey(), Expect.answered()));
    blockReport.put("removed", repeated(key, Expect.answered(), badKey(), Expect.answered()));
    all.add(new MethodCases("SlaveMaster", "blockReport", new FuzzSlave() {
      @Override
      Message.Builder request() {
        return BlockReportRequestProto.newBuilder().setSlaveId(FUZZ_SLAVE);
      }
    }, blockReport));

    Map<String, Kind> hits = new LinkedHashMap<>();
    hits.put("slaveId", ID);
    hits.put("hits", repeated(access(new BlockKey("BP-fuzz", 0, 1), SMALL, FUZZ_DATASET),
        Expect.answered(), access(new BlockKey("BP-fuzz", 0, 1), 0), Expect.answered()));
    all.add(new MethodCases("SlaveMaster", "reportHits", new FuzzSlave() {
      @Override
      Message.Builder request() {
        return HitReportRequestProto.newBuilder().setSlaveId(FUZZ_SLAVE);
      }
    }, hits));

    Map<String, Kind> replace = new LinkedHashMap<>(blockAccess("access"));
    replace.put("slaveId", ID);
    replace.put("freeBytes", UINT64);
    replace.put("force", bool());
    replace.put("path", text(true));
    replace.put("offset", number(0, Long.MAX_VALUE, false));
    all.add(new MethodCases("SlaveMaster", "requestReplace", new FuzzSlave() {
      @Override
      Message.Builder request() {
        return ReplaceRequestProto.newBuilder().setSlaveId(FUZZ_SLAVE)
            .setAccess(access(new BlockKey("BP-fuzz", 0, 1), SMALL, FUZZ_DATASET))
            .setFreeBytes(SMALL).setPath(FUZZ_DATASET + "/part-0").setOffset(0);
      }
    }, replace));

    Map<String, Kind> reclaim = new LinkedHashMap<>();
    reclaim.put("slaveId", ID);
    reclaim.put("bytes", number(0, FuzzSlave.CAPACITY, false));
    all.add(new MethodCases("SlaveMaster", "requestReclaim", new FuzzSlave() {
      @Override
      Message.Builder request() {
        return ReclaimRequestProto.newBuilder().setSlaveId(FUZZ_SLAVE).setBytes(SMALL);
      }
    }, reclaim));

    Map<String, Kind> unregister = new LinkedHashMap<>();
    unregister.put("slaveId", both(ID, values("no-such-slave:1", Expect.answered(
        "wasRegistered=false", m -> !((org.mpcache.common.proto.SlaveMasterProtos
            .UnregisterSlaveResponseProto) m).getWasRegistered()))));
    all.add(new MethodCases("SlaveMaster", "unregisterSlave", () -> UnregisterSlaveRequestProto
        .newBuilder().setSlaveId("no-such-slave:1"), unregister));
    return all;
  }

  /** Thousands of distinct, well-formed texts in a repeated string field get {@code many}. */
  private static Kind repeatedText(String field, String item, Expect many) {
    return (method, f, out) -> out.add(new Case(method, f, MANY + " items", b -> {
      for (int i = 0; i < MANY; i++) {
        add(b, f, item + i);
      }
    }, many));
  }

  /**
   * A field of a block a registering slave holds, beside its key: the master hands a block back
   * for eviction where {@code kind} expects a refusal (the slave still registers), and adopts it
   * otherwise.
   */
  private static Kind handedBackWhenRefused(Kind kind) {
    return (method, field, out) -> {
      List<Case> cases = new ArrayList<>();
      kind.cases(method, field, cases);
      for (Case c : cases) {
        out.add(new Case(c.method(), c.field(), c.value(), c.mutate(),
            c.expect().errorNaming() != null ? HANDED_BACK : ADOPTED));
      }
    };
  }

  /** A registration whose one held block the master handed back for eviction. */
  private static final Expect HANDED_BACK = Expect.answered("the block handed back",
      m -> ((RegisterSlaveResponseProto) m).getEvictCount() == 1);
  /** A registration whose one held block the master adopted. */
  private static final Expect ADOPTED = Expect.answered("the block adopted",
      m -> ((RegisterSlaveResponseProto) m).getEvictCount() == 0);

  private static BlockKeyProto badKey() {
    return BlockKeyProto.newBuilder().setBlockPoolId("BP-\u0000").setBlockId(1)
        .setGenerationStamp(1).build();
  }

  private static BlockKey fresh() {
    return new BlockKey("BP-fuzz", nextBlockId++, 1);
  }

  private static void endApplication(String app) throws IOException {
    RpcSupport.call(() -> localized.applicationFinished(null, ApplicationFinishedRequestProto
        .newBuilder().setApplicationId(app).build()));
  }

  /** A base for slave-master calls: a slave registered for the case and unregistered after. */
  private abstract static class FuzzSlave implements Base {
    static final long CAPACITY = 64L << 20;

    static SpaceReportProto space() {
      return SpaceReportProto.newBuilder().setCapacity(CAPACITY).setInputCacheCapacity(CAPACITY)
          .setInputCacheUsed(0).setDynamicPoolCapacity(0).setPoolLentToInput(0)
          .setPoolLentToLocalized(0).setLocalizedCacheCapacity(0).setLocalizedCacheUsed(0)
          .addDirs(SsdDirProto.newBuilder().setDir("/fuzz/ssd").setInService(true)).build();
    }

    static RegisterSlaveRequestProto.Builder registration() {
      return RegisterSlaveRequestProto.newBuilder().setSlave(SlaveInfoProto.newBuilder()
          .setSlaveId(FUZZ_SLAVE).setHost("fuzz-host").setClientPort(9)).setSpace(space());
    }

    Message.Builder request() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Message.Builder setUp() throws IOException {
      RpcSupport.call(() -> masterRpc.registerSlave(null, registration().build()));
      return request();
    }

    @Override
    public void tearDown(Message.Builder request, Message response) throws IOException {
      RpcSupport.call(() -> masterRpc.unregisterSlave(null, UnregisterSlaveRequestProto
          .newBuilder().setSlaveId(FUZZ_SLAVE).build()));
    }
  }

  private static List<Case> cases(MethodCases m) {
    List<Case> out = new ArrayList<>();
    m.fields().forEach((field, kind) -> kind.cases(m.method(), field, out));
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Running them.

  private static Object proxyOf(String protocol) {
    return switch (protocol) {
      case "ClientSlave" -> client;
      case "Localized" -> localized;
      case "SlaveMaster" -> masterRpc;
      default -> throw new IllegalArgumentException(protocol);
    };
  }

  private static Class<?> interfaceOf(String protocol) {
    return switch (protocol) {
      case "ClientSlave" -> ClientSlaveProtocolPB.class;
      case "Localized" -> LocalizedProtocolPB.class;
      case "SlaveMaster" -> SlaveMasterProtocolPB.class;
      default -> throw new IllegalArgumentException(protocol);
    };
  }

  private static Method rpcMethod(String protocol, String name) {
    for (Method m : interfaceOf(protocol).getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == 2
          && m.getParameterTypes()[0] == RpcController.class) {
        return m;
      }
    }
    throw new AssertionError(protocol + " has no method " + name);
  }

  /** Sends {@code request}; returns the answer, or the remote error. */
  private static Object send(String protocol, String method, Message request) {
    try {
      return rpcMethod(protocol, method).invoke(proxyOf(protocol), null, request);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      return t instanceof ServiceException && t.getCause() != null ? t.getCause() : t;
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  private static void run(MethodCases m, Case c) throws Exception {
    Map<String, Object> before = snapshot(false);
    Message.Builder b = m.base().setUp();
    c.mutate().accept(b);
    Message request = b.buildPartial();
    Map<String, Object> set = c.expect().answer() == null ? snapshot(true) : null;
    Object outcome = send(m.protocol(), m.method(), request);
    Message response = outcome instanceof Message msg ? msg : null;
    try {
      if (c.expect().errorNaming() != null) {
        if (!(outcome instanceof Throwable t)) {
          fail(c + ": answered " + outcome);
          return;
        }
        assertTrue(t instanceof IOException, c + ": a remote error, not " + t);
        assertTrue(String.valueOf(t.getMessage()).contains(c.expect().errorNaming()),
            c + ": the error names " + c.expect().errorNaming() + ": " + t);
        assertEquals(set, snapshot(true), c + ": a refused request changed nothing");
      } else {
        if (outcome instanceof Throwable t) {
          throw new AssertionError(c + ": failed", t);
        }
        assertTrue(c.expect().answer().test(response), c + ": " + c.expect().what() + ", got "
            + response);
      }
    } finally {
      m.base().tearDown(b, response);
    }
    assertEquals(before, snapshot(false), c + ": the state is as before");
  }

  @TestFactory
  Stream<DynamicTest> fuzz_everyMethodAndField_refusedOrAnsweredWithNothingElseChanged() {
    List<DynamicTest> tests = new ArrayList<>();
    for (MethodCases m : methods()) {
      for (Case c : cases(m)) {
        tests.add(DynamicTest.dynamicTest(c.toString(), () -> run(m, c)));
      }
    }
    tests.add(DynamicTest.dynamicTest("afterwards: the cached block and the base grant are intact"
        + " and still work", RpcFuzzTest::assertBaseStateWorks));
    return tests.stream();
  }

  /** After every case: the base state still behaves (the block reads back, the grant ends). */
  private static void assertBaseStateWorks() throws Exception {
    assertEquals(Arrays.hashCode(cachedBytes), Arrays.hashCode(readBack(CACHED, BLOCK)));
    long localizedUsed = slave.getLocalizedCache().snapshot().localizedCacheUsed();
    RpcSupport.call(() -> localized.reportRetained(null, ReportRetainedRequestProto.newBuilder()
        .setApplicationId(APP).setContainerId(CONTAINER).setAttemptId(ATTEMPT).setDir(grantDir)
        .setBytes(SMALL).build()));
    endApplication(APP);
    assertTrue(slave.getLocalizedCache().snapshot().localizedCacheUsed() <= localizedUsed - SMALL,
        "the base grant was still held whole, and ended with its application");
    assertEquals(List.of(CACHED), slave.getStore().cachedBlocks());
    assertEquals(Set.of(CACHED), Set.copyOf(master.getSlaveRegistry().blocksOf(slaveId)));
    assertFalse(master.getSlaveRegistry().isRegistered(FUZZ_SLAVE));
  }

  @Test
  void reportRead_aCauseTheSlaveDoesNotKnow_isCountedAsUnknown() throws Exception {
    long unknown = slave.getCounters().fallbacksByCause().get(FallbackCauseProto.UNKNOWN_CAUSE);
    long fallbacks = slave.getCounters().snapshot().getFallbacks();
    RpcSupport.call(() -> client.reportRead(null, ReportReadRequestProto.newBuilder()
        .setBlock(ProtoConverters.toProto(CACHED)).setBytesFromHdfs(1)
        .setUnknownFields(UnknownFieldSet.newBuilder().addField(
            ReportReadRequestProto.FALLBACK_FIELD_NUMBER,
            UnknownFieldSet.Field.newBuilder().addVarint(999).build()).build()).build()));
    assertEquals(unknown + 1,
        slave.getCounters().fallbacksByCause().get(FallbackCauseProto.UNKNOWN_CAUSE));
    assertEquals(fallbacks + 1, slave.getCounters().snapshot().getFallbacks());
  }

  /**
   * Every method of the three protocols has cases, and so has every field of its request,
   * sub-messages included: a method or field added without cases fails here.
   */
  @Test
  void everyMethodAndFieldHasCases() {
    Map<String, Set<String>> covered = new TreeMap<>();
    for (MethodCases m : methods()) {
      covered.computeIfAbsent(m.protocol() + "." + m.method(), k -> new TreeSet<>())
          .addAll(m.fields().keySet());
      assertFalse(cases(m).isEmpty(), m.method());
    }
    List<String> missing = new ArrayList<>();
    for (String protocol : List.of("ClientSlave", "Localized", "SlaveMaster")) {
      for (Method method : interfaceOf(protocol).getMethods()) {
        if (method.getParameterCount() != 2) {
          continue;
        }
        Set<String> fields = covered.get(protocol + "." + method.getName());
        if (fields == null) {
          missing.add(protocol + "." + method.getName() + " (the method)");
          continue;
        }
        Descriptor d = requestDescriptor(method);
        for (String path : fieldPaths(d, "")) {
          if (!fields.contains(path)) {
            missing.add(protocol + "." + method.getName() + " " + path);
          }
        }
      }
    }
    assertEquals(List.of(), missing, "methods and fields without fuzz cases");
  }

  private static Descriptor requestDescriptor(Method m) {
    try {
      return ((Message) m.getParameterTypes()[1].getMethod("getDefaultInstance").invoke(null))
          .getDescriptorForType();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** Every field path of {@code d}: "a", "a.b" for a field b of a sub-message a. */
  private static List<String> fieldPaths(Descriptor d, String prefix) {
    List<String> out = new ArrayList<>();
    for (FieldDescriptor f : d.getFields()) {
      String path = prefix + f.getName();
      out.add(path);
      // The items of a repeated field are covered as a whole (thousands of them, a bad one).
      if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated()) {
        out.addAll(fieldPaths(f.getMessageType(), path + "."));
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Setting fields by path, through protobuf's reflection.

  private static String leaf(String path) {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  /** The builder of the message holding the last field of {@code path}. */
  private static Message.Builder holder(Message.Builder b, String path) {
    String[] parts = path.split("\\.");
    Message.Builder cur = b;
    for (int i = 0; i < parts.length - 1; i++) {
      FieldDescriptor f = cur.getDescriptorForType().findFieldByName(parts[i]);
      if (f.isRepeated()) {
        if (cur.getRepeatedFieldCount(f) == 0) {
          throw new AssertionError("the base request has no " + parts[i] + " to change");
        }
        cur = cur.getRepeatedFieldBuilder(f, 0);
      } else {
        cur = cur.getFieldBuilder(f);
      }
    }
    return cur;
  }

  private static FieldDescriptor field(Message.Builder holder, String path) {
    FieldDescriptor f = holder.getDescriptorForType().findFieldByName(leaf(path));
    if (f == null) {
      throw new AssertionError("no field " + path);
    }
    return f;
  }

  private static void set(Message.Builder b, String path, Object value) {
    Message.Builder h = holder(b, path);
    FieldDescriptor f = field(h, path);
    if (value instanceof ByteString raw && f.getType() == FieldDescriptor.Type.STRING) {
      // Raw bytes, so that invalid UTF-8 goes out as it is.
      if (f.isRepeated()) {
        h.clearField(f);
      }
      setBytes(h, f, raw);
    } else if (value == MISSING) {
      h.clearField(f);
    } else if (f.isRepeated()) {
      h.clearField(f);
      h.addRepeatedField(f, value);
    } else {
      h.setField(f, value);
    }
  }

  private static void setBytes(Message.Builder h, FieldDescriptor f, ByteString raw) {
    String camel = f.getJsonName().substring(0, 1).toUpperCase() + f.getJsonName().substring(1);
    String name = (f.isRepeated() ? "add" : "set") + camel + "Bytes";
    try {
      h.getClass().getMethod(name, ByteString.class).invoke(h, raw);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(name, e);
    }
  }

  private static void add(Message.Builder b, String path, Object value) {
    Message.Builder h = holder(b, path);
    h.addRepeatedField(field(h, path), value);
  }

  /** A distinct copy of {@code item} (block keys and accesses get their block id varied). */
  private static Object withIndex(Message item, int i) {
    if (item instanceof BlockKeyProto k) {
      return k.toBuilder().setBlockId(10_000 + i).build();
    }
    if (item instanceof BlockAccessProto a) {
      return a.toBuilder().setBlock(a.getBlock().toBuilder().setBlockId(10_000 + i)).build();
    }
    return item;
  }

  private static String describe(Object v) {
    if (v instanceof ByteString bs) {
      return bs.isValidUtf8() ? "bytes[" + bs.size() + "]" : "invalid-UTF-8";
    }
    String s = String.valueOf(v);
    if (s.length() > 40) {
      return s.length() + " chars";
    }
    return "'" + s.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
