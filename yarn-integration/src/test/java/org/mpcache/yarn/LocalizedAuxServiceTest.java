package org.mpcache.yarn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.Waits;
import org.mpcache.common.proto.LocalizedProtos.LocalizedService;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolServerSideTranslatorPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The NodeManager's auxiliary service against a recording slave over RPC: it reports the
 * applications and containers it knows to be running every interval, so a finish notice the
 * slave never received is caught up with.
 */
class LocalizedAuxServiceTest {
  private static final ApplicationId APP = ApplicationId.newInstance(1, 1);
  private static final ContainerId C1 =
      ContainerId.newContainerId(ApplicationAttemptId.newInstance(APP, 1), 1);
  private static final ContainerId C2 =
      ContainerId.newContainerId(ApplicationAttemptId.newInstance(APP, 1), 2);

  /** What the slave heard, one line per call. */
  private final List<String> heard = new CopyOnWriteArrayList<>();
  /** Whether the slave fails containerFinished calls, as a lost notice. */
  private volatile boolean loseFinishNotices;
  private RPC.Server slave;
  private LocalizedAuxService aux;

  private final LocalizedProtocol recorder = new LocalizedProtocol() {
    @Override
    public LocalizedGrant requestSpace(String applicationId, String containerId,
        String attemptId, long bytes, LocalizedJob job) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void reportRetained(String applicationId, String containerId, String attemptId,
        String dir, long bytes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void returnSpace(String applicationId, String containerId, String attemptId,
        String dir, long bytes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void containerStarted(String containerId, String applicationId, String user) {
      heard.add("started " + containerId);
    }

    @Override
    public void containerFinished(String containerId) throws IOException {
      if (loseFinishNotices) {
        throw new IOException("lost");
      }
      heard.add("finished " + containerId);
    }

    @Override
    public void applicationFinished(String applicationId) {
      heard.add("finished " + applicationId);
    }

    @Override
    public void runningOnNode(Collection<String> applicationIds,
        Collection<String> containerIds) {
      heard.add("running " + applicationIds + " " + containerIds);
    }
  };

  @BeforeEach
  void start() throws IOException {
    Configuration conf = new Configuration(false);
    slave = RpcSupport.server(conf, LocalizedProtocolPB.class,
        LocalizedService.newReflectiveBlockingService(
            new LocalizedProtocolServerSideTranslatorPB(recorder)),
        new InetSocketAddress("127.0.0.1", 0), 1);
    slave.start();
    InetSocketAddress at = NetUtils.getConnectAddress(slave);
    Configuration nm = new Configuration(false);
    nm.set(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY, "127.0.0.1:" + at.getPort());
    nm.setLong(YarnIntegrationConfigKeys.RECONCILE_INTERVAL_MS_KEY, 100);
    aux = new LocalizedAuxService();
    aux.init(nm);
    aux.start();
  }

  @AfterEach
  void stop() {
    aux.stop();
    slave.stop();
  }

  @Test
  void reportRunning_containerFinishNoticeLost_nextReportNoLongerListsIt() throws Exception {
    aux.initializeApplication(new ApplicationInitializationContext("alice", APP, null));
    aux.initializeContainer(new ContainerInitializationContext("alice", C1, null));
    aux.initializeContainer(new ContainerInitializationContext("alice", C2, null));
    loseFinishNotices = true;
    aux.stopContainer(new ContainerTerminationContext("alice", C1, null));
    assertTrue(heard.stream().noneMatch(l -> l.equals("finished " + C1)), heard.toString());
    String onlyC2 = "running [" + APP + "] [" + C2 + "]";
    Waits.waitFor(() -> heard.contains(onlyC2), "a report listing " + C2 + " alone");
    aux.stopApplication(new ApplicationTerminationContext(APP));
    Waits.waitFor(() -> heard.contains("running [] []"), "a report listing nothing");
  }
}
