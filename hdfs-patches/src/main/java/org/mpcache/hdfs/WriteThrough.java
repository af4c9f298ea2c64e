package org.mpcache.hdfs;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.mpcache.common.proto.ClientSlaveProtos.AbortRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.proto.MpCacheProtos.BlockAccessProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * Writes the bytes a client reads of one block from HDFS through to a slave, so the block is
 * cached without the slave reading it from the HDDs a second time. The client offers the fill
 * only after reading {@code minBytes} in order from the block's start; the slave, having asked
 * the master, accepts or declines; the bytes follow in order, and the fill is committed when the
 * last byte of the block has been read. A reader that seeks away or stops early abandons it.
 *
 * <p>States: PENDING (buffering, not offered yet), ACTIVE (the slave accepted), DONE (committed),
 * OFF (declined, abandoned or failed). Not thread-safe: owned by one input stream.
 */
final class WriteThrough {
  private enum State { PENDING, ACTIVE, DONE, OFF }

  private final ClientSlaveProtocolPB slave;
  private final BlockAccessProto access;
  private final String blockToken;
  private final List<String> replicas;
  private final long blockLength;
  private final long minBytes;
  private final int writeBytes;
  private State state = State.PENDING;
  private byte[] buffer;
  private int buffered;
  private long expected;
  private long sent;
  private long fillId;

  /**
   * @param blockToken the block's access token, URL-safe; empty when HDFS issued none
   * @param replicas the data transfer addresses of the block's DataNodes, sent at commit so
   *     that the slave can ask one of them to vouch for the bytes
   */
  WriteThrough(ClientSlaveProtocolPB slave, BlockAccessProto access, String blockToken,
      List<String> replicas, long blockLength, long minBytes, int writeBytes) {
    this.slave = slave;
    this.access = access;
    this.blockToken = blockToken;
    this.replicas = List.copyOf(replicas);
    this.blockLength = blockLength;
    this.minBytes = Math.min(minBytes, blockLength);
    this.writeBytes = writeBytes;
    this.buffer = new byte[(int) Math.min(blockLength, Math.max(this.minBytes, writeBytes))
        + 64 * 1024];
  }

  /** Whether the block was committed to the slave's cache. */
  boolean isDone() {
    return state == State.DONE;
  }

  /**
   * Takes bytes the client just read at {@code blockOffset} of the block.
   *
   * @throws IOException when talking to the slave fails; the fill is then off
   */
  void offer(long blockOffset, byte[] b, int off, int len) throws IOException {
    if (state == State.OFF || state == State.DONE) {
      return;
    }
    if (blockOffset != expected) {
      abandon();
      return;
    }
    try {
      append(b, off, len);
      expected += len;
      if (state == State.PENDING && (buffered >= minBytes || expected == blockLength)) {
        start();
      }
      if (state == State.ACTIVE && (buffered >= writeBytes || expected == blockLength)) {
        flush();
      }
      if (state == State.ACTIVE && expected == blockLength && buffered == 0) {
        boolean cached = RpcSupport.call(() -> slave.commit(null, CommitRequestProto.newBuilder()
            .setFillId(fillId).setLength(blockLength).setBlockToken(blockToken)
            .addAllReplicas(replicas).build()))
            .getCached();
        state = cached ? State.DONE : State.OFF;
        buffer = null;
      }
    } catch (RemoteException e) {
      abandon();
      throw e;
    } catch (IOException | RuntimeException e) {
      // The slave did not answer: no abort to it either; it reaps fills nobody writes to.
      drop();
      throw e instanceof IOException ? (IOException) e : new IOException(e);
    }
  }

  private void append(byte[] b, int off, int len) {
    if (buffered + len > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, buffered + len));
    }
    System.arraycopy(b, off, buffer, buffered, len);
    buffered += len;
  }

  private void start() throws IOException {
    LookupResponseProto r = RpcSupport.call(() -> slave.lookup(null,
        LookupRequestProto.newBuilder().setAccess(access).setOfferFill(true)
            .setBlockToken(blockToken).build()));
    if (r.getStatus() == LookupResponseProto.Status.MISS && r.hasFillId()) {
      fillId = r.getFillId();
      state = State.ACTIVE;
    } else {
      state = State.OFF;
      buffer = null;
      buffered = 0;
    }
  }

  private void flush() throws IOException {
    int off = 0;
    while (off < buffered) {
      int n = Math.min(writeBytes, buffered - off);
      long at = sent;
      ByteString data = ByteString.copyFrom(buffer, off, n);
      boolean ok = RpcSupport.call(() -> slave.write(null, FillChecksums.withData(
          WriteRequestProto.newBuilder().setFillId(fillId).setOffset(at)
              .setBlockToken(blockToken), data).build()))
          .getAccepted();
      if (!ok) {
        state = State.OFF;
        buffer = null;
        buffered = 0;
        return;
      }
      sent += n;
      off += n;
    }
    buffered = 0;
  }

  /** Gives up the fill without telling the slave, which reaps fills nobody writes to. */
  void drop() {
    if (state != State.DONE) {
      state = State.OFF;
    }
    buffer = null;
    buffered = 0;
  }

  /** Gives up the fill (best effort) unless it is already done. */
  void abandon() {
    if (state == State.ACTIVE) {
      try {
        RpcSupport.call(() -> slave.abort(null,
            AbortRequestProto.newBuilder().setFillId(fillId).setBlockToken(blockToken).build()));
      } catch (IOException e) {
        // The slave reaps fills nobody writes to; nothing else to do.
      }
    }
    if (state != State.DONE) {
      state = State.OFF;
    }
    buffer = null;
    buffered = 0;
  }
}
