package org.mpcache.slave.cache;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.Optional;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.slave.security.BlockAccessChecker;
import org.mpcache.slave.store.BlockLease;
import org.mpcache.slave.store.CorruptBlockException;
import org.mpcache.slave.store.FileBlockStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lends a cached block's open file to a reader outside the RPC path, after the same check a
 * {@code lookup} or {@code read} makes ({@link BlockAccessChecker}: the block token of that very
 * block): the {@link DescriptorServer} passes the file's descriptor to a reader on this host, the
 * {@link BlockStreamServer} streams the file to any reader. The loan holds a {@link BlockLease},
 * so an evicted block's file stays readable to the loan's end and its space is freed then.
 *
 * <p>Thread-safe: stateless but for the thread-safe store and counters it was given.
 */
final class BlockLender {
  private static final Logger LOG = LoggerFactory.getLogger(BlockLender.class);

  /** How a request for a block's file ended. */
  enum Outcome {
    GRANTED,
    /** Not (or no longer, or not yet) cached here, or found corrupt and dropped. */
    NOT_CACHED,
    /** Not authorized, or malformed. */
    REFUSED,
    /** The block's checksums or file could not be read. */
    ERROR
  }

  /**
   * The answer to one request: when granted, the lease and the file opened read-only, both the
   * caller's to close; otherwise why not.
   */
  record Loan(Outcome outcome, String message, BlockLease lease, FileInputStream file) {
    /** Closes the file and ends the lease; space of an evicted block is freed by the last. */
    void close() {
      if (file != null) {
        try {
          file.close();
        } catch (IOException ignored) {
          // A read-only file: nothing is lost.
        }
      }
      if (lease != null) {
        lease.close();
      }
    }
  }

  private final InputCache cache;
  private final FileBlockStore store;
  private final BlockAccessChecker access;
  private final SlaveCounters counters;

  /** @param cache drops a block found corrupt (its checksum file gone or short) */
  BlockLender(InputCache cache, BlockAccessChecker access) {
    this.cache = cache;
    this.store = cache.store();
    this.access = access;
    this.counters = cache.counters();
  }

  /** Checks that the caller may read {@code block}; the refusal's message says why not. */
  Optional<String> refusal(BlockKeyProto block, String token) {
    try {
      access.check(RequestChecks.blockKey("block", block), token);
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /** Checks the request and, when it may be granted, leases the block and opens its file. */
  Loan lend(BlockKeyProto block, String token, String peer) {
    BlockKey key;
    try {
      key = RequestChecks.blockKey("block", block);
      access.check(key, token);
    } catch (IOException e) {
      LOG.debug("Refused {} to {}: {}", block.getBlockId(), peer, e.getMessage());
      return new Loan(Outcome.REFUSED, e.getMessage(), null, null);
    }
    Optional<BlockLease> l;
    try {
      l = store.lease(key);
    } catch (CorruptBlockException e) {
      cache.drop(key, e.getMessage());
      return new Loan(Outcome.NOT_CACHED, "corrupt: " + e.getMessage(), null, null);
    } catch (IOException e) {
      counters.readErrors.incrementAndGet();
      LOG.warn("Could not read the checksums of cached block {}; keeping it: {}", key,
          e.toString());
      return new Loan(Outcome.ERROR, e.getMessage(), null, null);
    }
    if (l.isEmpty()) {
      return new Loan(Outcome.NOT_CACHED, "not cached", null, null);
    }
    BlockLease lease = l.get();
    try {
      return new Loan(Outcome.GRANTED, "", lease, lease.open());
    } catch (IOException e) {
      lease.close();
      // Removed between the lease and the open: the file is gone, and so is the block.
      return store.cachedLength(key) < 0 ? new Loan(Outcome.NOT_CACHED, "removed", null, null)
          : new Loan(Outcome.ERROR, e.getMessage(), null, null);
    }
  }
}
