package org.mpcache.hdfs;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientMasterProtos.BlockHostsProto;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsRequestProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RpcSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the hosts whose slave holds a block as that block's hosts and cached hosts, so that map
 * tasks are placed beside the SSD copy. Both, because {@code FileInputFormat.getSplits} passes
 * {@link BlockLocation#getHosts()} and {@link BlockLocation#getCachedHosts()} into each split but
 * MapReduce asks YARN for a map's container by the split's hosts alone ({@code JobSplitWriter}
 * keeps {@code getLocations()}; the cached hosts reach only {@code getLocationInfo()}, which
 * engines such as Spark read): a cached block's hosts are its slaves' hosts, its names and
 * topology paths still HDFS's replicas. One request to the master per file (per block location
 * array; a file of more than {@link RequestChecks#MAX_CACHED_HOSTS_BLOCKS} blocks in as many
 * requests of at most that many as it takes), answered from its placement index; answers are
 * kept for
 * {@code mpcache.client.cached.hosts.expiry.ms} so that a split computation over many files, or
 * repeated ones, do not ask again for the same blocks.
 *
 * <p>It never fails the caller: an error or a master that does not answer within the call's time
 * limit leaves HDFS's own locations as they are, logs one WARN per instance (one FileSystem), and
 * the master is not asked again for {@code mpcache.client.slave.retry.ms}. Reads never come here.
 *
 * <p>Thread-safe: the monitor guards the answers kept and the retry time, and is never held across
 * the call to the master.
 */
final class CachedHosts implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CachedHosts.class);

  /** The most blocks whose answer is kept: a few MiB at most, the oldest dropped first. */
  static final int MAX_KEPT_BLOCKS = 100_000;

  private final Configuration conf;
  /** The master's address, how long an answer is used, how long a failed master is left alone. */
  private final ClientConf settings;
  private final LongSupplier clock;

  /** One answer: the hosts, and when it stops being used. */
  private record Kept(List<String> hosts, long until) {
  }

  @GuardedBy("this")
  private final Map<BlockKey, Kept> kept = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<BlockKey, Kept> eldest) {
      return size() > MAX_KEPT_BLOCKS;
    }
  };
  /** Until when the master is not asked, after a failure. */
  @GuardedBy("this")
  private long quietUntil;
  @GuardedBy("this")
  private boolean warned;
  @GuardedBy("this")
  private ClientMasterProtocolPB master;

  CachedHosts(Configuration conf, ClientConf settings, LongSupplier clock) {
    this.conf = conf;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Adds to each of {@code locations} the hosts whose slave holds its block, {@code blocks.get(i)}
   * for {@code locations[i]}, beside any cached hosts HDFS named. A null or erasure-coded block
   * is left as it is, and so are all when the two lists differ in length. Never throws.
   */
  void addTo(BlockLocation[] locations, List<LocatedBlock> blocks) {
    if (locations == null || locations.length == 0 || locations.length != blocks.size()) {
      return;
    }
    List<BlockKey> keys = new ArrayList<>(locations.length);
    for (LocatedBlock b : blocks) {
      keys.add(b == null || b.isStriped() ? null : MpCacheFileSystem.keyOf(b));
    }
    Map<BlockKey, List<String>> hosts = lookUp(keys);
    for (int i = 0; i < locations.length; i++) {
      List<String> ours = keys.get(i) == null ? null : hosts.get(keys.get(i));
      if (ours == null || ours.isEmpty()) {
        continue;
      }
      Set<String> merged = new LinkedHashSet<>(List.of(locations[i].getCachedHosts()));
      merged.addAll(ours);
      locations[i].setCachedHosts(merged.toArray(new String[0]));
      try {
        // MapReduce requests a map's container by the split's hosts alone (JobSplitWriter keeps
        // getLocations(), never the cached hosts): a cached block names its slaves' hosts there.
        locations[i].setHosts(ours.toArray(new String[0]));
      } catch (IOException e) {
        throw new IllegalStateException("BlockLocation.setHosts declares but never throws", e);
      }
    }
  }

  /** The hosts of each key, kept ones and, for the rest, the master's answer; never throws. */
  private Map<BlockKey, List<String>> lookUp(List<BlockKey> keys) {
    Map<BlockKey, List<String>> out = new LinkedHashMap<>();
    // A set: a file's keys are distinct but many, and this runs under the monitor.
    Set<BlockKey> ask = new LinkedHashSet<>();
    ClientMasterProtocolPB m;
    synchronized (this) {
      long now = clock.getAsLong();
      for (BlockKey k : keys) {
        if (k == null || out.containsKey(k)) {
          continue;
        }
        Kept e = kept.get(k);
        if (e != null && e.until > now) {
          out.put(k, e.hosts);
        } else {
          ask.add(k);
        }
      }
      if (ask.isEmpty() || now < quietUntil) {
        return out;
      }
      try {
        m = proxy();
      } catch (IOException e) {
        failed(e);
        return out;
      }
    }
    List<BlockKey> all = new ArrayList<>(ask);
    for (int from = 0; from < all.size(); from += RequestChecks.MAX_CACHED_HOSTS_BLOCKS) {
      List<BlockKey> batch = all.subList(from,
          Math.min(all.size(), from + RequestChecks.MAX_CACHED_HOSTS_BLOCKS));
      if (!ask(m, batch, out)) {
        break;
      }
    }
    return out;
  }

  /**
   * Asks the master for the hosts of {@code batch} (at most as many blocks as it accepts in one
   * request), keeps the answer and adds it to {@code out}; false when the call failed (counted,
   * and the master left alone for the retry interval).
   */
  private boolean ask(ClientMasterProtocolPB m, List<BlockKey> batch,
      Map<BlockKey, List<String>> out) {
    List<BlockHostsProto> answer;
    ClientCounters.get().cachedHostsLookup();
    try {
      answer = RpcSupport.call(() -> m.cachedHosts(null, CachedHostsRequestProto.newBuilder()
          .addAllBlocks(ProtoConverters.toProtos(batch)).build())).getBlocksList();
      if (answer.size() != batch.size()) {
        throw new IOException("the master answered for " + answer.size() + " blocks, asked for "
            + batch.size());
      }
    } catch (IOException e) {
      synchronized (this) {
        failed(e);
      }
      return false;
    }
    synchronized (this) {
      long until = clock.getAsLong() + settings.cachedHostsExpiryMs;
      for (int i = 0; i < batch.size(); i++) {
        List<String> hosts = List.copyOf(answer.get(i).getHostsList());
        kept.put(batch.get(i), new Kept(hosts, until));
        out.put(batch.get(i), hosts);
      }
    }
    return true;
  }

  @GuardedBy("this")
  private ClientMasterProtocolPB proxy() throws IOException {
    if (master == null) {
      master = RpcSupport.proxy(ClientMasterProtocolPB.class, settings.masterAddress, conf,
          Math.min(settings.rpcTimeoutMs, settings.deadlineMs));
    }
    return master;
  }

  @GuardedBy("this")
  private void failed(IOException e) {
    ClientCounters.get().cachedHostsFailure();
    quietUntil = clock.getAsLong() + settings.retryMs;
    if (!warned) {
      warned = true;
      LOG.warn("Cannot ask the mpCache master at {} which hosts cache blocks; tasks are placed by"
          + " HDFS's locations (not asked again for {} ms; further failures are counted, not"
          + " logged): {}", settings.masterAddress, settings.retryMs, e.toString());
    }
  }

  @Override
  public synchronized void close() {
    RpcSupport.close(master);
    master = null;
  }
}
