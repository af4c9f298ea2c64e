package org.mpcache.hdfs;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.Closeable;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.proto.ClientSlaveProtos.FollowingBlockProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReadResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportCorruptResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.ReportReadResponseProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;

/**
 * A slave in memory and an HDFS file, for a {@link CachingInputStream} under test without a
 * cluster: the slave answers lookups and reads of the blocks it caches (through the RPC
 * transport, chunk checksums and all), takes read and corruption reports, and fails or delays the next lookup
 * or read as a test asks ({@link Fault}, {@link #delayNext}). Time is a ticker the test, the
 * faults and the delays advance; HDFS is a mock that serves the file's bytes and counts them.
 *
 * <p>Thread-safe: positional reads may call it from several threads.
 */
final class FakeSlave implements Closeable {
  static final int CHUNK = 512;
  static final int DEADLINE_MS = 1_000;
  /** The bytes a read call asks the slave for: the least there may be. */
  static final int READ_BYTES = 4096;

  /** What the slave's next call does instead of answering. */
  enum Fault {
    /** Answers with an error, as a slave refusing a request or a token does. */
    REFUSED,
    /** Fails without an answer, as an unreachable slave does. */
    UNREACHABLE,
    /** Answers after the cache deadline has passed. */
    SLOW,
    /** Answers with a byte changed after its checksum was taken. */
    CORRUPT,
    /** Answers with bytes that do not cover the offset asked for. */
    SHORT,
    /** Evicts the block first, then answers. */
    EVICT
  }

  final int blockBytes;
  final int blocks;
  final byte[] content;
  final AtomicLong nanos = new AtomicLong(1);
  final ClientSlaveProtocolPB proxy = mock(ClientSlaveProtocolPB.class);
  final SlaveDirectory directory = mock(SlaveDirectory.class);
  final DFSInputStream hdfs = mock(DFSInputStream.class);
  final BackgroundCalls background = new BackgroundCalls("fake-slave-background", 1, 1_000);
  /** The open streams of the streams' FileSystem: closing it is the FileSystem closing. */
  final OpenStreams openStreams = new OpenStreams();
  /** Indexes of the blocks the slave caches. */
  final Set<Integer> cached = ConcurrentHashMap.newKeySet();
  final AtomicInteger lookups = new AtomicInteger();
  final AtomicInteger reads = new AtomicInteger();
  final AtomicInteger corruptReports = new AtomicInteger();
  final AtomicLong bytesFromHdfs = new AtomicLong();
  private final AtomicLong carried = new AtomicLong();
  private final List<ReportReadRequestProto> carriedReports = new ArrayList<>();
  final List<ReportReadRequestProto> readReports = new ArrayList<>();
  private final Map<String, Fault> next = new ConcurrentHashMap<>();
  private final Map<String, Long> delays = new ConcurrentHashMap<>();
  private long hdfsPos;

  FakeSlave(int blocks, int blockBytes) throws Exception {
    this.blocks = blocks;
    this.blockBytes = blockBytes;
    this.content = new byte[blocks * blockBytes];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31 + i / 7);
    }
    // A new record per choice, as SlaveDirectory makes them: the same slave is not the same object.
    Map<String, String> sockets = new HashMap<>();
    when(directory.choose(any())).thenAnswer(inv -> Optional.of(new SlaveDirectory.Slave("s1",
        proxy, false, "127.0.0.1", 0, sockets)));
    when(proxy.lookup(any(), any())).thenAnswer(inv -> lookup(inv.getArgument(1)));
    when(proxy.read(any(), any())).thenAnswer(inv -> read(inv.getArgument(1)));
    when(proxy.reportCorrupt(any(), any())).thenAnswer(inv -> {
      corruptReports.incrementAndGet();
      return ReportCorruptResponseProto.getDefaultInstance();
    });
    when(proxy.reportRead(any(), any())).thenAnswer(inv -> {
      synchronized (readReports) {
        readReports.add(inv.getArgument(1));
      }
      return ReportReadResponseProto.getDefaultInstance();
    });
    serveHdfs();
  }

  /**
   * The next call named {@code lookup} or {@code read} takes {@code ms} of the ticker's time
   * before it answers.
   */
  void delayNext(String call, long ms) {
    delays.put(call, ms);
  }

  /** The next call named {@code lookup} or {@code read} fails with {@code fault}. */
  void failNext(String call, Fault fault) {
    next.put(call, fault);
  }

  /** A stream over the file; {@code conf} adds to the test's settings. */
  CachingInputStream open(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, false);
    c.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
    c.setInt(ClientConfigKeys.CACHE_DEADLINE_MS_KEY, DEADLINE_MS);
    c.setInt(ClientConfigKeys.READ_BYTES_KEY, READ_BYTES);
    ClientConf settings = new ClientConf(c);
    ClientContext ctx = new ClientContext(settings, directory, background, openStreams,
        new DescriptorCache(settings.descriptorCacheMaxIdle, settings.descriptorCacheIdleNanos,
            nanos::get),
        new DescriptorGate(0), null);
    List<LocatedBlock> located = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      LocatedBlock b = new LocatedBlock(new ExtendedBlock("BP-1", i + 1, blockBytes, 1),
          new DatanodeInfo[0]);
      b.setStartOffset((long) i * blockBytes);
      located.add(b);
    }
    return new CachingInputStream(hdfs, "hdfs://nn/f", located, blocks, ctx,
        new Dataset("hdfs://nn/f", blocks, (long) blocks * blockBytes), nanos::get);
  }

  /** A stream over the file with the default settings, lookups of misses not batched. */
  CachingInputStream open() {
    Configuration conf = new Configuration(false);
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, 0);
    return open(conf);
  }

  /** Waits for the calls made off the readers' threads; the slave then takes no more. */
  @Override
  public void close() {
    background.close();
  }

  private Fault take(String call) {
    Long ms = delays.remove(call);
    if (ms != null) {
      nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }
    return next.remove(call);
  }

  /** Throws, or lets time pass, as {@code fault} says; true when the answer is to be spoiled. */
  private boolean inject(Fault fault, int index) throws ServiceException {
    if (fault == null) {
      return false;
    }
    switch (fault) {
      case REFUSED:
        throw new ServiceException(new RemoteException("java.io.IOException", "refused"));
      case UNREACHABLE:
        throw new ServiceException(new ConnectException("Connection refused"));
      case SLOW:
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS + 1));
        return false;
      case EVICT:
        cached.remove(index);
        return false;
      default:
        return true;
    }
  }

  /** The read reports the slave had, on their own or carried by lookups. */
  List<ReportReadRequestProto> allReports() {
    List<ReportReadRequestProto> all = new ArrayList<>();
    synchronized (readReports) {
      all.addAll(readReports);
    }
    synchronized (carriedReports) {
      all.addAll(carriedReports);
    }
    return all;
  }

  /** HDFS bytes of the read reports lookups carried. */
  long lookupsCarried() {
    return carried.get();
  }

  private LookupResponseProto lookup(LookupRequestProto req) throws ServiceException {
    lookups.incrementAndGet();
    for (ReportReadRequestProto r : req.getPreviousReadList()) {
      carried.addAndGet(r.getBytesFromHdfs());
      synchronized (carriedReports) {
        carriedReports.add(r);
      }
    }
    int index = (int) req.getAccess().getBlock().getBlockId() - 1;
    inject(take("lookup"), index);
    LookupResponseProto.Builder r = answer(index).toBuilder();
    for (FollowingBlockProto f : req.getFollowingList()) {
      r.addFollowing(answer((int) f.getAccess().getBlock().getBlockId() - 1));
    }
    return r.build();
  }

  private LookupResponseProto answer(int index) {
    return cached.contains(index)
        ? LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.HIT)
            .setLength(blockBytes).build()
        : LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS).build();
  }

  private ReadResponseProto read(ReadRequestProto req) throws ServiceException {
    reads.incrementAndGet();
    int index = (int) req.getBlock().getBlockId() - 1;
    Fault fault = take("read");
    boolean spoil = inject(fault, index);
    if (!cached.contains(index)) {
      throw new ServiceException(new RemoteException("java.io.IOException", "not cached"));
    }
    long start = req.getOffset() - req.getOffset() % CHUNK;
    if (spoil && fault == Fault.SHORT) {
      start += CHUNK;
    }
    int len = (int) Math.min(req.getLength() + req.getOffset() - start, blockBytes - start);
    byte[] data = new byte[Math.max(0, len)];
    System.arraycopy(content, index * blockBytes + (int) start, data, 0, data.length);
    ReadResponseProto.Builder r = ReadResponseProto.newBuilder().setOffset(start)
        .setChunkSize(CHUNK);
    CRC32C crc = new CRC32C();
    for (int from = 0; from < data.length; from += CHUNK) {
      crc.reset();
      crc.update(data, from, Math.min(CHUNK, data.length - from));
      r.addChecksums((int) crc.getValue());
    }
    if (spoil && fault == Fault.CORRUPT) {
      data[data.length / 2] ^= 1;
    }
    return r.setData(ByteString.copyFrom(data)).build();
  }

  private void serveHdfs() throws Exception {
    when(hdfs.getFileLength()).thenReturn((long) content.length);
    when(hdfs.getPos()).thenAnswer(inv -> hdfsPos);
    doAnswer(inv -> hdfsPos = inv.getArgument(0)).when(hdfs).seek(anyLong());
    when(hdfs.read(any(byte[].class), anyInt(), anyInt())).thenAnswer(inv -> {
      int n = copy(hdfsPos, inv.getArgument(0), inv.getArgument(1), inv.getArgument(2));
      hdfsPos += Math.max(0, n);
      return n;
    });
    when(hdfs.read(anyLong(), any(byte[].class), anyInt(), anyInt())).thenAnswer(inv ->
        copy(inv.getArgument(0), inv.getArgument(1), inv.getArgument(2), inv.getArgument(3)));
  }

  private int copy(long from, byte[] b, int off, int len) {
    int n = (int) Math.min(len, content.length - from);
    if (n <= 0) {
      return -1;
    }
    System.arraycopy(content, (int) from, b, off, n);
    bytesFromHdfs.addAndGet(n);
    return n;
  }
}
