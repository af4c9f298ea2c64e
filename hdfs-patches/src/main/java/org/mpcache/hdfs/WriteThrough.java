package org.mpcache.hdfs;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.UnsafeByteOperations;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientSlaveProtos.AbortRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.CommitRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.WriteRequestProto;
import org.mpcache.common.protocolPB.FillChecksums;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * Writes the bytes a client reads of one block from HDFS through to a slave, so the block is
 * cached without the slave reading it from the HDDs a second time, and without the reader ever
 * waiting for the slave. The slave granted the fill in the reader's one lookup of the block (the
 * reader entered the block at its start). The reader hands each read's bytes over
 * ({@link #offer}: a copy into a write-behind queue of at most
 * {@code mpcache.client.fill.queue.bytes}); a sender thread ({@link BackgroundCalls}) writes the
 * queued bytes in order, {@code writeBytes} per call with their per-chunk checksums, and commits
 * after the block's last byte.
 *
 * <p>The fill is abandoned, never the read, when the queue is full (the slave or the sender threads
 * fall behind the reader: fallback cause {@code fill-queue-full}); when a call to the slave has
 * been under way longer than the cache deadline ({@code deadline-exceeded}) or fails unanswered
 * ({@code slave-unreachable}), and the slave is then marked faulty; when the slave answers with an
 * error ({@code fill-failed}); when the fill is not committed within the cache deadline after the
 * reader read the block's last byte ({@code fill-too-slow}); and when the reader leaves the order
 * or the block early or HDFS switches blocks under it (the stream calls {@link #abandon}). An
 * abandoned fill is aborted at the slave from the sender thread, best effort, unless the slave is
 * marked faulty: then nothing more goes to it, and the slave reaps the fill. Either way the slave
 * then reads the block from HDFS itself, so the block is still cached once.
 *
 * <p>States: ACTIVE (granted; writing), DONE (committed), OFF (abandoned or failed).
 *
 * <p>Thread-safe: the reader's thread and at most one sender task at a time use it; the monitor
 * guards the state and the queue and is never held across a call to the slave.
 */
final class WriteThrough {
  private enum State { ACTIVE, DONE, OFF }

  /** The sender's next call. */
  private enum Step { WRITE, COMMIT, ABORT, REPORT, TOO_SLOW, IDLE }

  private final ClientContext ctx;
  private final SlaveDirectory.Slave slave;
  private final BlockKey key;
  private final String blockToken;
  private final List<String> replicas;
  private final long blockLength;
  private final long fillId;
  private final ClientCounters counters = ClientCounters.get();

  @GuardedBy("this")
  private State state = State.ACTIVE;
  /** Whole pieces read and not yet written; the head may be being written. */
  @GuardedBy("this")
  private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
  /** The piece the reader is adding to; null between pieces. */
  @GuardedBy("this")
  private byte[] piece;
  @GuardedBy("this")
  private int pieceBytes;
  /** Bytes handed over and not yet written to the slave, the piece being written included. */
  @GuardedBy("this")
  private long queued;
  /** The block offset of the reader's next byte. */
  @GuardedBy("this")
  private long expected;
  /** Bytes the slave accepted. */
  @GuardedBy("this")
  private long written;
  /** The slave holds a fill that was abandoned: the sender aborts it. */
  @GuardedBy("this")
  private boolean abortDue;
  /** The stream's read report for the block, sent after the fill's calls. */
  @GuardedBy("this")
  private Runnable report;
  /** A sender task is queued or running. */
  @GuardedBy("this")
  private boolean sending;
  /** When the call under way started ({@link System#nanoTime}); 0 when there is none. */
  @GuardedBy("this")
  private long callStart;
  /** When the reader read the block's last byte; 0 before. */
  @GuardedBy("this")
  private long lastByteRead;

  /**
   * @param blockToken the block's access token, URL-safe; empty when HDFS issued none
   * @param replicas the data transfer addresses of the block's DataNodes, sent at commit so
   *     that the slave can ask one of them to vouch for the bytes
   * @param fillId the fill the slave granted in the block's lookup
   */
  WriteThrough(ClientContext ctx, SlaveDirectory.Slave slave, BlockKey key,
      String blockToken, List<String> replicas, long blockLength, long fillId) {
    this.ctx = ctx;
    this.slave = slave;
    this.key = key;
    this.blockToken = blockToken;
    this.replicas = List.copyOf(replicas);
    this.blockLength = blockLength;
    this.fillId = fillId;
  }

  /**
   * Takes a copy of bytes the reader just read at {@code blockOffset} of the block. Never waits
   * for the slave; a fault only ends the fill.
   */
  void offer(long blockOffset, byte[] b, int off, int len) {
    FallbackCause cause = null;
    boolean start;
    synchronized (this) {
      if (state == State.OFF || state == State.DONE) {
        return;
      }
      long now = System.nanoTime();
      if (blockOffset != expected) {
        off(true);
      } else if (callStart != 0 && now - callStart > ctx.conf().deadlineNanos) {
        cause = FallbackCause.DEADLINE_EXCEEDED;
        off(false);
      } else if (queued + len > ctx.conf().fillQueueBytes) {
        cause = FallbackCause.FILL_QUEUE_FULL;
        off(true);
      } else {
        append(b, off, len);
        if (expected == blockLength) {
          lastByteRead = now;
        }
      }
      start = needsSender();
    }
    if (cause != null) {
      count(cause, null);
    }
    if (start) {
      startSender();
    }
  }

  @GuardedBy("this")
  private void append(byte[] b, int off, int len) {
    while (len > 0) {
      if (piece == null) {
        piece = new byte[(int) Math.min(ctx.conf().fillWriteBytes, blockLength - expected)];
        pieceBytes = 0;
      }
      int n = Math.min(len, piece.length - pieceBytes);
      System.arraycopy(b, off, piece, pieceBytes, n);
      pieceBytes += n;
      off += n;
      len -= n;
      expected += n;
      queued += n;
      if (pieceBytes == piece.length) {
        ready.addLast(piece);
        piece = null;
      }
    }
  }

  /** Gives up the fill: the slave's copy is aborted off the reader's thread, best effort. */
  void abandon() {
    boolean start;
    synchronized (this) {
      off(true);
      start = needsSender();
    }
    if (start) {
      startSender();
    }
  }

  /**
   * The reader leaves the block: a fill the reader did not complete is abandoned, a complete one
   * goes on in the background within the cache deadline. {@code report}, when not null, tells
   * the slave about the block's HDFS reads once the fill's calls are over, unless the slave is
   * faulty by then.
   */
  void leave(Runnable report) {
    boolean start;
    synchronized (this) {
      if (expected < blockLength) {
        off(true);
      }
      this.report = report;
      start = needsSender();
    }
    if (start) {
      startSender();
    }
  }

  /** Ends the fill; {@code abort}: the slave's copy, if it holds one, is to be aborted. */
  @GuardedBy("this")
  private void off(boolean abort) {
    if (state != State.OFF && state != State.DONE) {
      state = State.OFF;
      abortDue = abort;
    }
    ready.clear();
    piece = null;
    queued = 0;
  }

  /** Whether there is work for the sender and none is under way; if so, it now is. */
  @GuardedBy("this")
  private boolean needsSender() {
    boolean work = abortDue || report != null
        || state == State.ACTIVE && (!ready.isEmpty() || written == blockLength);
    if (!work || sending) {
      return false;
    }
    sending = true;
    return true;
  }

  private void startSender() {
    if (!ctx.fills().execute(this::send)) {
      synchronized (this) {
        sending = false;
        off(false);
        report = null;
      }
    }
  }

  /** @param faulty whether the slave is being left alone after a fault */
  @GuardedBy("this")
  private Step nextStep(boolean faulty) {
    if (faulty) {
      // Nothing more goes to a slave that did not answer in time.
      off(false);
      abortDue = false;
      report = null;
      return Step.IDLE;
    }
    if (abortDue) {
      abortDue = false;
      return Step.ABORT;
    }
    if (state == State.ACTIVE && lastByteRead != 0
        && System.nanoTime() - lastByteRead > ctx.conf().deadlineNanos) {
      return Step.TOO_SLOW;
    }
    if (state == State.ACTIVE && !ready.isEmpty()) {
      return Step.WRITE;
    }
    if (state == State.ACTIVE && written == blockLength) {
      return Step.COMMIT;
    }
    if (report != null && (state == State.DONE || state == State.OFF)) {
      return Step.REPORT;
    }
    return Step.IDLE;
  }

  /** The sender task: makes the fill's calls in order until there is nothing left to do. */
  private void send() {
    while (true) {
      Step step;
      byte[] data = null;
      long at;
      Runnable toReport = null;
      boolean faulty = ctx.directory().isFaulty(slave.id);
      synchronized (this) {
        step = nextStep(faulty);
        if (step == Step.IDLE) {
          sending = false;
          return;
        }
        if (step == Step.WRITE) {
          data = ready.peekFirst();
        }
        if (step == Step.REPORT) {
          toReport = report;
          report = null;
        }
        at = written;
        callStart = System.nanoTime() | 1;
      }
      long started = System.nanoTime();
      try {
        switch (step) {
          case WRITE:
            // A queued piece is complete and never changed again.
            ByteString bytes = UnsafeByteOperations.unsafeWrap(data);
            wrote(data.length, RpcSupport.call(() -> slave.proxy.write(null,
                FillChecksums.withData(WriteRequestProto.newBuilder().setFillId(fillId)
                    .setOffset(at).setBlockToken(blockToken), bytes).build())).getAccepted());
            break;
          case COMMIT:
            committed(RpcSupport.call(() -> slave.proxy.commit(null, CommitRequestProto
                .newBuilder().setFillId(fillId).setLength(blockLength).setBlockToken(blockToken)
                .addAllReplicas(replicas).build())).getCached());
            break;
          case ABORT:
            RpcSupport.call(() -> slave.proxy.abort(null, AbortRequestProto.newBuilder()
                .setFillId(fillId).setBlockToken(blockToken).build()));
            break;
          case REPORT:
            toReport.run();
            break;
          case TOO_SLOW:
            synchronized (this) {
              off(true);
            }
            count(FallbackCause.FILL_TOO_SLOW, null);
            break;
          default:
            throw new IllegalStateException(step.name());
        }
      } catch (IOException | RuntimeException e) {
        failed(step, e, System.nanoTime() - started);
      } finally {
        synchronized (this) {
          callStart = 0;
        }
      }
    }
  }

  private synchronized void wrote(int n, boolean accepted) {
    if (!accepted) {
      // The slave gave the fill up itself.
      off(false);
      return;
    }
    written += n;
    if (state == State.ACTIVE) {
      ready.pollFirst();
      queued -= n;
    }
  }

  private void committed(boolean cached) {
    synchronized (this) {
      if (!cached) {
        off(false);
        return;
      }
      state = State.DONE;
    }
    counters.filled();
  }

  /** A call failed: the fill ends, once, and a slave that did not answer is left alone. */
  private void failed(Step step, Exception e, long tookNanos) {
    if (Thread.currentThread().isInterrupted()) {
      // The client is closing.
      synchronized (this) {
        off(false);
        report = null;
      }
      return;
    }
    boolean answered = e instanceof RemoteException;
    FallbackCause cause = answered ? FallbackCause.FILL_FAILED
        : tookNanos > ctx.conf().deadlineNanos ? FallbackCause.DEADLINE_EXCEEDED
        : FallbackCause.SLAVE_UNREACHABLE;
    boolean wasOn;
    synchronized (this) {
      wasOn = state != State.OFF && state != State.DONE;
      off(answered);
    }
    if (wasOn && step != Step.ABORT && step != Step.REPORT) {
      count(cause, e);
    } else if (!answered) {
      ctx.directory().markFaulty(slave.id);
    }
  }

  /**
   * Counts the fill's end for {@code cause}; a slave that did not answer (in time) is marked
   * faulty, so that it gets no abort and no further call from this client for a while.
   */
  private void count(FallbackCause cause, Exception e) {
    boolean unresponsive = cause.slaveFault();
    if (unresponsive) {
      ctx.directory().markFaulty(slave.id);
    }
    counters.fallback(cause, "the fill of " + key + " on slave " + slave.id + " is abandoned"
        + (e == null ? "" : ": " + e.getMessage()) + " (cache deadline "
        + TimeUnit.NANOSECONDS.toMillis(ctx.conf().deadlineNanos) + " ms, write-behind queue "
        + ctx.conf().fillQueueBytes + " bytes)", unresponsive ? e : null);
  }
}
