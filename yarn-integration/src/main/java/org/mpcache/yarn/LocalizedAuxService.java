package org.mpcache.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's link to the slave beside it: tells the slave's Localized Cache when containers
 * start, and for which user (only that user's tasks may then ask for room for them), and when
 * containers and applications end, so their grants are released; and publishes the slave's
 * address and the node's SSD directories to every container (see {@link NodeLocalizedInfo}).
 * Registered in yarn-site as {@value YarnIntegrationConfigKeys#AUX_SERVICE_NAME}; it calls the
 * slave as the NodeManager's user, which the slave must know
 * ({@code mpcache.slave.localized.nodemanager.users}). A slave that is down costs only a logged
 * warning: the NodeManager and its containers carry on, and the slave starts empty when it
 * returns, knowing only the containers started since (the others' tasks use their HDDs).
 * Thread-safe: the NodeManager calls it from its dispatcher threads, and the RPC proxy is
 * thread-safe.
 */
public class LocalizedAuxService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(LocalizedAuxService.class);

  private volatile NodeLocalizedInfo info;
  private volatile LocalizedProtocolClientSideTranslatorPB slave;

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
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    slave = new LocalizedProtocolClientSideTranslatorPB(
        NetUtils.createSocketAddr(info.address()), LocalizedRpc.clientConf(getConfig()));
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    LocalizedProtocolClientSideTranslatorPB s = slave;
    if (s != null) {
      s.close();
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    // Grants are made on demand by the tasks; an application needs no set-up on the slave.
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    ContainerId container = context.getContainerId();
    String appId = container.getApplicationAttemptId().getApplicationId().toString();
    try {
      slave.containerStarted(container.toString(), appId, context.getUser());
    } catch (IOException e) {
      // The container's tasks are then refused SSD room and write to their HDDs.
      LOG.warn("Could not tell the slave at {} that {} of {} started for {}: {}", info.address(),
          container, appId, context.getUser(), e.toString());
    }
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    String containerId = context.getContainerId().toString();
    try {
      slave.containerFinished(containerId);
    } catch (IOException e) {
      LOG.warn("Could not tell the slave at {} that {} finished: {}", info.address(), containerId,
          e.toString());
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    String appId = context.getApplicationId().toString();
    try {
      slave.applicationFinished(appId);
    } catch (IOException e) {
      LOG.warn("Could not tell the slave at {} that {} finished: {}", info.address(), appId,
          e.toString());
    }
  }

  @Override
  public ByteBuffer getMetaData() {
    return info.encode();
  }
}
