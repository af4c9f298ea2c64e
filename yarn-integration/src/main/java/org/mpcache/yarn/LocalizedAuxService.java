package org.mpcache.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.protocolPB.LocalizedProtocolClientSideTranslatorPB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's link to the slave beside it: tells the slave's Localized Cache when containers
 * and applications end, so their grants are released, and publishes the slave's address and the
 * node's SSD directories to every container (see {@link NodeLocalizedInfo}). Registered in yarn-site
 * as {@value YarnIntegrationConfigKeys#AUX_SERVICE_NAME}. A slave that is down costs only a logged
 * warning: the NodeManager and its containers carry on, and the slave starts empty when it returns.
 * Thread-safe: the NodeManager calls it from its dispatcher threads, and the RPC proxy is thread-safe.
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
