package org.mpcache.hdfs;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A client's view of the slaves: the live list from the master (refreshed every
 * {@code mpcache.client.slaves.refresh.ms}), an RPC proxy per slave, and the slaves recently found
 * faulty, which are left alone for {@code mpcache.client.slave.retry.ms}. It picks the slave for a
 * block with {@link SlaveSelector}. An unreachable master means no slaves: reads go to HDFS.
 *
 * <p>Thread-safe: every method takes this object's monitor; RPCs to the master happen under it,
 * at most once per refresh interval.
 */
final class SlaveDirectory implements Closeable {

  /** A chosen slave and the proxy to talk to it. */
  static final class Slave {
    final String id;
    final ClientSlaveProtocolPB proxy;

    Slave(String id, ClientSlaveProtocolPB proxy) {
      this.id = id;
      this.proxy = proxy;
    }
  }

  private final Configuration conf;
  private final InetSocketAddress masterAddress;
  private final int rpcTimeoutMs;
  private final long refreshMs;
  private final long retryMs;
  private final LongSupplier clock;
  private final Set<String> localHosts;

  @GuardedBy("this")
  private ClientMasterProtocolPB master;
  @GuardedBy("this")
  private List<SlaveInfoProto> slaves = List.of();
  @GuardedBy("this")
  private long nextRefresh;
  @GuardedBy("this")
  private final Map<String, ClientSlaveProtocolPB> proxies = new HashMap<>();
  @GuardedBy("this")
  private final Map<String, Long> faultyUntil = new HashMap<>();

  SlaveDirectory(Configuration conf, InetSocketAddress masterAddress, int rpcTimeoutMs,
      long refreshMs, long retryMs, LongSupplier clock) {
    this.conf = conf;
    this.masterAddress = masterAddress;
    this.rpcTimeoutMs = rpcTimeoutMs;
    this.refreshMs = refreshMs;
    this.retryMs = retryMs;
    this.clock = clock;
    this.localHosts = localHostNames();
  }

  private static Set<String> localHostNames() {
    Set<String> names = new HashSet<>(List.of("localhost", "127.0.0.1"));
    try {
      InetAddress me = InetAddress.getLocalHost();
      names.add(me.getHostName());
      names.add(me.getCanonicalHostName());
      names.add(me.getHostAddress());
    } catch (UnknownHostException e) {
      // Only the loopback names are known; slaves on other names count as remote.
    }
    return names;
  }

  /** The slave to ask for {@code block}, or empty when none is suitable. */
  synchronized Optional<Slave> choose(LocatedBlock block) {
    refreshIfDue();
    long now = clock.getAsLong();
    faultyUntil.values().removeIf(until -> until <= now);
    List<SlaveSelector.Replica> replicas = new ArrayList<>();
    for (DatanodeInfo dn : block.getLocations()) {
      replicas.add(new SlaveSelector.Replica(dn.getXferAddr(), dn.getXferAddrWithHostname(),
          dn.getHostName(), dn.getIpAddr()));
    }
    Optional<SlaveInfoProto> s = SlaveSelector.choose(slaves, replicas, localHosts,
        block.getBlock().getBlockId(), faultyUntil.keySet());
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Slave(s.get().getSlaveId(), proxy(s.get())));
    } catch (IOException e) {
      markFaulty(s.get().getSlaveId());
      return Optional.empty();
    }
  }

  private ClientSlaveProtocolPB proxy(SlaveInfoProto s) throws IOException {
    ClientSlaveProtocolPB p = proxies.get(s.getSlaveId());
    if (p == null) {
      p = RpcSupport.proxy(ClientSlaveProtocolPB.class,
          new InetSocketAddress(s.getHost(), s.getClientPort()), conf, rpcTimeoutMs);
      proxies.put(s.getSlaveId(), p);
    }
    return p;
  }

  /** Leaves a slave alone for the retry interval after a fault. */
  synchronized void markFaulty(String slaveId) {
    faultyUntil.put(slaveId, clock.getAsLong() + retryMs);
  }

  private void refreshIfDue() {
    long now = clock.getAsLong();
    if (now < nextRefresh) {
      return;
    }
    nextRefresh = now + refreshMs;
    try {
      if (master == null) {
        master = RpcSupport.proxy(ClientMasterProtocolPB.class, masterAddress, conf,
            rpcTimeoutMs);
      }
      ClientMasterProtocolPB m = master;
      slaves = RpcSupport.call(() -> m.getSlaves(null, GetSlavesRequestProto.getDefaultInstance()))
          .getSlavesList();
    } catch (IOException e) {
      slaves = List.of();
      ClientCounters.get().fallback("master-unreachable",
          "cannot reach the mpCache master at " + masterAddress + ": " + e.getMessage(), null);
    }
  }

  @Override
  public synchronized void close() {
    RpcSupport.close(master);
    master = null;
    for (ClientSlaveProtocolPB p : proxies.values()) {
      RpcSupport.close(p);
    }
    proxies.clear();
  }
}
