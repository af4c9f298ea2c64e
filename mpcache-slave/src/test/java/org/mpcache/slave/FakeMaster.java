package org.mpcache.slave;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.thirdparty.protobuf.Message;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.BlockReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HeartbeatResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.HitReportResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReclaimResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.RegisterSlaveResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.ReplaceResponseProto;
import org.mpcache.common.proto.SlaveMasterProtos.SlaveMasterService;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveRequestProto;
import org.mpcache.common.proto.SlaveMasterProtos.UnregisterSlaveResponseProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;

/**
 * A stand-in for the mpCache master in the slave's unit tests: a real Hadoop RPC server on
 * 127.0.0.1 (an ephemeral port) serving {@link SlaveMasterProtocolPB}, so that a slave under test
 * speaks its real protocol over the wire without the master module. It has no policy of its own:
 * it records every request it receives, in order, per request type, and answers from a script,
 * with defaults that keep a slave running (registration accepted with a 50 ms heartbeat, heartbeats
 * "ok", every replace admitted with nothing to evict, every reclaim freeing nothing). A request type
 * can be made to fail (the slave sees a remote {@link IOException}) or to hang until the fake is
 * closed (the slave sees its RPC timeout).
 *
 * <p>Thread-safe: the RPC handlers and the test thread share it. {@link #close} stops the server
 * and releases hung calls.
 */
public final class FakeMaster implements SlaveMasterProtocolPB, AutoCloseable {
  /**
   * What a request type does instead of answering at once: fail, hang until the master is
   * closed, or answer after {@link #SLOW_MS} (a master in a long GC pause).
   */
  public enum Fault { NONE, FAIL, HANG, SLOW }

  /** How long a {@link Fault#SLOW} call takes to be answered. */
  public static final long SLOW_MS = 3_000;

  private final Map<Class<?>, List<Message>> received = new ConcurrentHashMap<>();
  private final Map<Class<?>, Fault> faults = new ConcurrentHashMap<>();
  private volatile Fault allFault = Fault.NONE;
  private final Queue<HeartbeatResponseProto> heartbeats = new ConcurrentLinkedQueue<>();
  private final Queue<ReplaceResponseProto> replaces = new ConcurrentLinkedQueue<>();
  private final Queue<List<BlockKey>> reclaims = new ConcurrentLinkedQueue<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicBoolean stopped = new AtomicBoolean();
  private volatile RegisterSlaveResponseProto registerResponse =
      RegisterSlaveResponseProto.newBuilder().setHeartbeatIntervalMs(50).build();
  private final RPC.Server server;

  /** Starts a fake master listening on 127.0.0.1 at an ephemeral port. */
  public FakeMaster(Configuration conf) throws IOException {
    server = RpcSupport.server(new Configuration(conf), SlaveMasterProtocolPB.class,
        SlaveMasterService.newReflectiveBlockingService(this),
        new InetSocketAddress("127.0.0.1", 0), 8);
    server.start();
  }

  /** Where the fake listens: the slave's {@code mpcache.master.rpc-address}. */
  public InetSocketAddress address() {
    return NetUtils.getConnectAddress(server);
  }

  /** The requests of one type received so far, oldest first (a snapshot). */
  @SuppressWarnings("unchecked")
  public <T extends Message> List<T> received(Class<T> requestType) {
    return new ArrayList<>((List<T>) received.getOrDefault(requestType, List.of()));
  }

  /** Makes requests of {@code requestType} fail, hang or be answered again. */
  public void setFault(Class<? extends Message> requestType, Fault fault) {
    faults.put(requestType, fault);
  }

  /** Makes every request type without a fault of its own fail, hang or be answered again. */
  public void setFaultForAll(Fault fault) {
    allFault = fault;
  }

  /** The answer to every later registration. */
  public void setRegisterResponse(RegisterSlaveResponseProto response) {
    registerResponse = response;
  }

  /** Answers the next heartbeats with these, in order; "ok" once they are used up. */
  public void scriptHeartbeats(HeartbeatResponseProto... responses) {
    heartbeats.addAll(Arrays.asList(responses));
  }

  /** Tells the slave at its next heartbeat that the master does not know it. */
  public void reregisterAtNextHeartbeat() {
    scriptHeartbeats(HeartbeatResponseProto.newBuilder().setReregister(true).build());
  }

  /** Answers the next replace requests with these, in order; admit-all once they are used up. */
  public void scriptReplaces(ReplaceResponseProto... responses) {
    replaces.addAll(Arrays.asList(responses));
  }

  /** Admits the next replace request on condition that the slave evicts {@code evict} first. */
  public void admitNextReplaceEvicting(BlockKey... evict) {
    scriptReplaces(ReplaceResponseProto.newBuilder().setAdmitted(true).setReason("scripted")
        .addAllEvict(ProtoConverters.toProtos(Arrays.asList(evict))).build());
  }

  /** Answers the next reclaim request with these blocks to evict; later ones free nothing. */
  public void scriptReclaim(BlockKey... evict) {
    reclaims.add(List.of(evict));
  }

  /** Records the request and carries out the fault scripted for its type, if any. */
  private void receive(Message request) throws ServiceException {
    received.computeIfAbsent(request.getClass(), c -> new CopyOnWriteArrayList<>()).add(request);
    switch (faults.getOrDefault(request.getClass(), allFault)) {
      case FAIL:
        throw new ServiceException(new IOException("FakeMaster: scripted failure of "
            + request.getDescriptorForType().getName()));
      case HANG:
        try {
          closed.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        throw new ServiceException(new IOException("FakeMaster: hung call released"));
      case SLOW:
        try {
          closed.await(SLOW_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      default:
        return;
    }
  }

  @Override
  public RegisterSlaveResponseProto registerSlave(RpcController c, RegisterSlaveRequestProto req)
      throws ServiceException {
    receive(req);
    return registerResponse;
  }

  @Override
  public HeartbeatResponseProto heartbeat(RpcController c, HeartbeatRequestProto req)
      throws ServiceException {
    receive(req);
    HeartbeatResponseProto r = heartbeats.poll();
    return r != null ? r : HeartbeatResponseProto.getDefaultInstance();
  }

  @Override
  public BlockReportResponseProto blockReport(RpcController c, BlockReportRequestProto req)
      throws ServiceException {
    receive(req);
    return BlockReportResponseProto.getDefaultInstance();
  }

  @Override
  public HitReportResponseProto reportHits(RpcController c, HitReportRequestProto req)
      throws ServiceException {
    receive(req);
    return HitReportResponseProto.getDefaultInstance();
  }

  @Override
  public ReplaceResponseProto requestReplace(RpcController c, ReplaceRequestProto req)
      throws ServiceException {
    receive(req);
    ReplaceResponseProto r = replaces.poll();
    return r != null ? r
        : ReplaceResponseProto.newBuilder().setAdmitted(true).setReason("fake admits").build();
  }

  @Override
  public ReclaimResponseProto requestReclaim(RpcController c, ReclaimRequestProto req)
      throws ServiceException {
    receive(req);
    List<BlockKey> evict = reclaims.poll();
    return ReclaimResponseProto.newBuilder()
        .addAllEvict(ProtoConverters.toProtos(evict != null ? evict : List.of())).build();
  }

  @Override
  public UnregisterSlaveResponseProto unregisterSlave(RpcController c,
      UnregisterSlaveRequestProto req) throws ServiceException {
    receive(req);
    return UnregisterSlaveResponseProto.newBuilder().setWasRegistered(true).build();
  }

  /** Releases hung calls and stops the server; the slave then finds the master down. Idempotent. */
  @Override
  public void close() {
    closed.countDown();
    if (stopped.compareAndSet(false, true)) {
      server.stop();
    }
  }
}
