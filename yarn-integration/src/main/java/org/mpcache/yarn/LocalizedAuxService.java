package org.mpcache.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's link to the slave beside it: tells the slave's Localized Cache when containers
 * start, and for which user (only that user's tasks may then ask for room for them), and when
 * containers and applications end, so their grants are released; and publishes the slave's
 * address and the node's SSD directories to every container (see {@link NodeLocalizedInfo}).
 * Every interval of {@value YarnIntegrationConfigKeys#RECONCILE_INTERVAL_MS_KEY} it also sends the
 * slave the applications and containers it knows to be running (those the NodeManager initialized
 * and has not stopped since this service started): the slave ends the grants of any other, so a
 * finish notice that was lost holds its room only until then. Registered in yarn-site as
 * {@value YarnIntegrationConfigKeys#AUX_SERVICE_NAME}; it calls the slave as the NodeManager's
 * user, which the slave must know ({@code mpcache.slave.localized.nodemanager.users}). A slave
 * that is down costs only a logged warning: the NodeManager and its containers carry on, and the
 * slave starts empty when it returns, knowing only the containers started since (the others'
 * tasks use their HDDs).
 *
 * <p>Thread-safe: the NodeManager calls it from its dispatcher threads, the report runs on a
 * thread of its own, and the RPC proxy is thread-safe. The running applications and containers,
 * and every call to the slave that changes them, are under this object's monitor, so that no
 * report the slave receives is older than a start or finish it already heard of.
 */
public class LocalizedAuxService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedAuxService.class);

  private volatile NodeLocalizedInfo info;
  private volatile LocalizedProtocolClientSideTranslatorPB slave;
  private long reconcileMs;
  private ScheduledExecutorService reporter;
  /** The applications initialized and not stopped since the service started. */
  @GuardedBy("this")
  private final Set<String> applications = new TreeSet<>();
  /**
   * The containers initialized and not stopped since the service started, with their
   * applications.
   */
  @GuardedBy("this")
  private final Map<String, String> containers = new TreeMap<>();

  public LocalizedAuxService() {
    super(YarnIntegrationConfigKeys.AUX_SERVICE_NAME);
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    String address = conf.getTrimmed(YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY,
        YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_DEFAULT);
    NetUtils.createSocketAddr(address, -1, YarnIntegrationConfigKeys.LOCALIZED_ADDRESS_KEY);
    info = new NodeLocalizedInfo(address,
        Arrays.asList(conf.getTrimmedStrings(MpCacheConfigKeys.SLAVE_CACHE_DIRS_KEY)));
    reconcileMs = ConfigChecks.longAtLeast(conf,
        YarnIntegrationConfigKeys.RECONCILE_INTERVAL_MS_KEY,
        YarnIntegrationConfigKeys.RECONCILE_INTERVAL_MS_DEFAULT, 1);
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    slave = new LocalizedProtocolClientSideTranslatorPB(
        NetUtils.createSocketAddr(info.address()), LocalizedRpc.clientConf(getConfig()));
    reporter = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "mpcache-localized-report");
      t.setDaemon(true);
      return t;
    });
    reporter.scheduleWithFixedDelay(this::reportRunning, reconcileMs, reconcileMs,
        TimeUnit.MILLISECONDS);
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (reporter != null) {
      reporter.shutdownNow();
    }
    LocalizedProtocolClientSideTranslatorPB s = slave;
    if (s != null) {
      s.close();
    }
    super.serviceStop();
  }

  @Override
  public synchronized void initializeApplication(ApplicationInitializationContext context) {
    // Grants are made on demand by the tasks: the slave hears of the application from them.
    applications.add(context.getApplicationId().toString());
  }

  @Override
  public synchronized void initializeContainer(ContainerInitializationContext context) {
    ContainerId container = context.getContainerId();
    String appId = container.getApplicationAttemptId().getApplicationId().toString();
    applications.add(appId);
    containers.put(container.toString(), appId);
    try {
      slave.containerStarted(container.toString(), appId, context.getUser());
    } catch (IOException e) {
      // The container's tasks are then refused SSD room and write to their HDDs.
      LOG.warn("Could not tell the slave at {} that {} of {} started for {}: {}", info.address(),
          container, appId, context.getUser(), e.toString());
    }
  }

  @Override
  public synchronized void stopContainer(ContainerTerminationContext context) {
    String containerId = context.getContainerId().toString();
    containers.remove(containerId);
    try {
      slave.containerFinished(containerId);
    } catch (IOException e) {
      LOG.warn("Could not tell the slave at {} that {} finished: {}", info.address(), containerId,
          e.toString());
    }
  }

  @Override
  public synchronized void stopApplication(ApplicationTerminationContext context) {
    String appId = context.getApplicationId().toString();
    applications.remove(appId);
    containers.values().removeIf(appId::equals);
    try {
      slave.applicationFinished(appId);
    } catch (IOException e) {
      LOG.warn("Could not tell the slave at {} that {} finished: {}", info.address(), appId,
          e.toString());
    }
  }

  /** Sends the slave the applications and containers running on the node. */
  synchronized void reportRunning() {
    try {
      slave.runningOnNode(List.copyOf(applications), List.copyOf(containers.keySet()));
    } catch (IOException | RuntimeException e) {
      // The next report, or a notice, catches up.
      LOG.warn("Could not tell the slave at {} which of its applications and containers still"
          + " run: {}", info.address(), e.toString());
    }
  }

  @Override
  public ByteBuffer getMetaData() {
    return info.encode();
  }
}
