package org.mpcache.hdfs;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * A client's view of the slaves: the live list from the master (refreshed every
 * {@code mpcache.client.slaves.refresh.ms}), an RPC proxy per slave, and the slaves recently found
 * faulty, which are left alone for {@code mpcache.client.slave.retry.ms}. It picks the slave for a
 * block with {@link SlaveSelector}.
 *
 * <p>The list is refreshed off the readers' path, by one background thread: a reader never waits
 * for the master, except the first ones, which wait at most the cache deadline for the first list
 * (until then, and while the master cannot be reached, reads go to HDFS). A failed refresh keeps
 * the list it had: slaves that went away meanwhile fail their first call and are marked faulty.
 *
 * <p>With Kerberos on, the master and the slaves are called as {@link #tokenUser}: the reader's
 * user holding the block token of the block it last chose a slave for, with which it
 * authenticates (SASL DIGEST-MD5, as HDFS clients call a DataNode's
 * {@code ClientDatanodeProtocol}): a task holds block tokens and delegation tokens, never a
 * Kerberos ticket. Each call still carries the token of its own block.
 *
 * <p>Thread-safe: the monitor guards the list, the proxies and the faulty set, and is never held
 * across an RPC or a wait.
 */
final class SlaveDirectory implements Closeable {
  private static final Text BLOCK_TOKEN_ALIAS = new Text("mpcache.block.token");

  /**
   * A chosen slave, the proxy to talk to it, whether it runs on the reader's host, and where it
   * streams blocks.
   *
   * @param local whether its host is this one: only then may its block files be read directly
   * @param host the host it serves on
   * @param streamPort its block stream port; 0 when it offers no stream
   * @param descriptorSockets the directory's descriptor sockets by slave id, kept across the
   *     choices of a slave
   */
  record Slave(String id, ClientSlaveProtocolPB proxy, boolean local, String host, int streamPort,
      Map<String, String> descriptorSockets) {
    /**
     * Its descriptor socket as its last hit named it, null when not known: a reader on its host
     * asks that socket for a block's file first, the request standing for the block's lookup.
     */
    String descriptorSocket() {
      return descriptorSockets.get(id);
    }

    /** Remembers the socket a hit named; null forgets it. */
    void descriptorSocket(String path) {
      if (path == null) {
        descriptorSockets.remove(id);
      } else {
        descriptorSockets.put(id, path);
      }
    }
  }

  private final Configuration conf;
  /** The master's address and the time limits, refresh and retry intervals used here. */
  private final ClientConf settings;
  /** Each slave's descriptor socket as its last hit named it ({@link Slave#descriptorSocket}). */
  private final Map<String, String> descriptorSockets = new ConcurrentHashMap<>();
  private final LongSupplier clock;
  private final Set<String> localHosts;
  private final ExecutorService refresher;
  /** With Kerberos, who the proxies call as (see the class comment); null without. */
  private final UserGroupInformation tokenUser;

  /** Only the refresher thread uses it, and {@link #close} once that thread has stopped. */
  private ClientMasterProtocolPB master;
  /** The master's list; null until the first refresh succeeded. */
  @GuardedBy("this")
  private List<SlaveInfoProto> slaves;
  @GuardedBy("this")
  private long nextRefresh;
  /** A first-list refresh a reader already waited the deadline out for: no reader waits again. */
  @GuardedBy("this")
  private Future<?> waitedOut;
  /** The refresh in flight, if any. */
  @GuardedBy("this")
  private Future<?> refreshing;
  @GuardedBy("this")
  private final Map<String, ClientSlaveProtocolPB> proxies = new HashMap<>();
  @GuardedBy("this")
  private final Map<String, Long> faultyUntil = new HashMap<>();

  /**
   * Calls to the master take at most {@link ClientConf#rpcTimeoutMs}; calls to a slave, and the
   * first reader's wait for the slave list, at most the cache deadline too.
   */
  SlaveDirectory(Configuration conf, ClientConf settings, LongSupplier clock) {
    this.conf = conf;
    this.settings = settings;
    this.clock = clock;
    this.tokenUser = UserGroupInformation.isSecurityEnabled()
        ? UserGroupInformation.createRemoteUser(currentUserName()) : null;
    this.localHosts = localHostNames();
    this.refresher = Executors.newSingleThreadExecutor(new ThreadFactoryBuilder()
        .setDaemon(true).setNameFormat("mpcache-client-slave-list").build());
  }

  private static String currentUserName() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
  Optional<Slave> choose(LocatedBlock block) {
    if (tokenUser != null && block.getBlockToken().getIdentifier().length > 0) {
      // One alias: the newest token replaces the last; new connections authenticate with it.
      tokenUser.addToken(BLOCK_TOKEN_ALIAS, block.getBlockToken());
    }
    awaitFirstList(refreshIfDue());
    List<SlaveSelector.Replica> replicas = new ArrayList<>();
    for (DatanodeInfo dn : block.getLocations()) {
      replicas.add(new SlaveSelector.Replica(dn.getXferAddr(), dn.getXferAddrWithHostname(),
          dn.getHostName(), dn.getIpAddr()));
    }
    synchronized (this) {
      long now = clock.getAsLong();
      faultyUntil.values().removeIf(until -> until <= now);
      Optional<SlaveInfoProto> s = SlaveSelector.choose(slaves == null ? List.of() : slaves,
          replicas, localHosts, block.getBlock().getBlockId(), faultyUntil.keySet());
      if (s.isEmpty()) {
        return Optional.empty();
      }
      try {
        return Optional.of(new Slave(s.get().getSlaveId(), proxy(s.get()),
            localHosts.contains(s.get().getHost()), s.get().getHost(), s.get().getStreamPort(),
            descriptorSockets));
      } catch (IOException e) {
        markFaulty(s.get().getSlaveId());
        return Optional.empty();
      }
    }
  }

  /**
   * Waits a bounded time for the first list, if there is none yet and {@code first} fetches it;
   * once one reader waited the deadline out for a refresh, the others go on without waiting for
   * it (a later refresh is waited for again, by one reader).
   */
  private void awaitFirstList(Future<?> first) {
    if (first == null) {
      return;
    }
    try {
      first.get(settings.deadlineMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // Reads go to HDFS until the list arrives; the readers after this one do not wait for it.
      synchronized (this) {
        waitedOut = first;
      }
    } catch (ExecutionException | CancellationException e) {
      // Reads go to HDFS until the list arrives.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @GuardedBy("this")
  private ClientSlaveProtocolPB proxy(SlaveInfoProto s) throws IOException {
    ClientSlaveProtocolPB p = proxies.get(s.getSlaveId());
    if (p == null) {
      InetSocketAddress address = new InetSocketAddress(s.getHost(), s.getClientPort());
      p = proxy(ClientSlaveProtocolPB.class, address,
          Math.min(settings.rpcTimeoutMs, settings.deadlineMs));
      proxies.put(s.getSlaveId(), p);
    }
    return p;
  }

  /** A proxy calling as {@link #tokenUser} with Kerberos, as the current user without. */
  private <T> T proxy(Class<T> protocol, InetSocketAddress address, int timeoutMs)
      throws IOException {
    if (tokenUser == null) {
      return RpcSupport.proxy(protocol, address, conf, timeoutMs);
    }
    try {
      return tokenUser.doAs((PrivilegedExceptionAction<T>) () ->
          RpcSupport.proxy(protocol, address, conf, timeoutMs));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted creating a proxy to " + address);
    }
  }

  /** Leaves a slave alone for the retry interval after a fault. */
  synchronized void markFaulty(String slaveId) {
    faultyUntil.put(slaveId, clock.getAsLong() + settings.retryMs);
  }

  /** Whether the slave is being left alone after a fault. */
  synchronized boolean isFaulty(String slaveId) {
    Long until = faultyUntil.get(slaveId);
    return until != null && until > clock.getAsLong();
  }

  /**
   * Starts a refresh when one is due and none is in flight; returns the refresh a reader should
   * wait for (bounded) when there is no list yet, else null.
   */
  private synchronized Future<?> refreshIfDue() {
    long now = clock.getAsLong();
    if (refreshing == null && now >= nextRefresh) {
      nextRefresh = now + settings.slavesRefreshMs;
      try {
        refreshing = refresher.submit(this::refresh);
      } catch (RejectedExecutionException closed) {
        return null;
      }
    }
    return slaves == null && refreshing != waitedOut ? refreshing : null;
  }

  /** Runs on the refresher thread: asks the master, with no lock held. */
  private void refresh() {
    List<SlaveInfoProto> fresh = null;
    try {
      if (master == null) {
        master = proxy(ClientMasterProtocolPB.class, settings.masterAddress,
            settings.rpcTimeoutMs);
      }
      ClientMasterProtocolPB m = master;
      fresh = RpcSupport.call(() -> m.getSlaves(null, GetSlavesRequestProto.getDefaultInstance()))
          .getSlavesList();
    } catch (IOException e) {
      ClientCounters.get().fallback(FallbackCause.MASTER_UNREACHABLE, "cannot reach the mpCache"
          + " master at " + settings.masterAddress + ": " + e.getMessage(), null);
    } finally {
      synchronized (this) {
        if (fresh != null) {
          slaves = fresh;
        }
        refreshing = null;
      }
    }
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    try {
      refresher.awaitTermination(settings.rpcTimeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    RpcSupport.close(master);
    master = null;
    synchronized (this) {
      for (ClientSlaveProtocolPB p : proxies.values()) {
        RpcSupport.close(p);
      }
      proxies.clear();
    }
  }
}
