package org.mpcache.slave.localized;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.proto.LocalizedProtos.LocalizedService;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolServerSideTranslatorPB;
import org.mpcache.common.service.ServiceAcls;
import org.mpcache.slave.security.SlavePolicyProvider;

/**
 * Serves the slave's Localized Cache (a {@link LocalizedCache}, or any {@link LocalizedProtocol}) over
 * Hadoop RPC ({@code LocalizedProtocol}) to the node's tasks and
 * NodeManager auxiliary service, on {@link LocalizedConfigKeys#LOCALIZED_BIND_ADDRESS_KEY}. The
 * server starts in {@link #serviceStart}; stopping tolerates a service that never started.
 * Thread-safe, as Hadoop services are.
 */
public class LocalizedCacheService extends AbstractService {
  private final LocalizedProtocol cache;
  private volatile RPC.Server server;

  public LocalizedCacheService(LocalizedProtocol cache) {
    super(LocalizedCacheService.class.getSimpleName());
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  @Override
  protected void serviceStart() throws Exception {
    Configuration conf = new Configuration(getConfig());
    String bind = conf.getTrimmed(LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY,
        LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_DEFAULT);
    InetSocketAddress address = NetUtils.createSocketAddr(bind, -1,
        LocalizedConfigKeys.LOCALIZED_BIND_ADDRESS_KEY);
    int handlers = conf.getInt(LocalizedConfigKeys.LOCALIZED_HANDLER_COUNT_KEY,
        LocalizedConfigKeys.LOCALIZED_HANDLER_COUNT_DEFAULT);
    if (handlers < 1) {
      throw new IllegalArgumentException(LocalizedConfigKeys.LOCALIZED_HANDLER_COUNT_KEY + " is "
          + handlers + ": set at least 1");
    }
    RPC.setProtocolEngine(conf, LocalizedProtocolPB.class, ProtobufRpcEngine2.class);
    server = new RPC.Builder(conf).setProtocol(LocalizedProtocolPB.class)
        .setInstance(LocalizedService.newReflectiveBlockingService(
            new LocalizedProtocolServerSideTranslatorPB(cache)))
        .setBindAddress(address.getHostString()).setPort(address.getPort())
        .setNumHandlers(handlers).setVerbose(false).build();
    ServiceAcls.load(server, conf, new SlavePolicyProvider());
    server.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    RPC.Server s = server;
    if (s != null) {
      s.stop();
    }
    super.serviceStop();
  }

  /** The address the server listens on (with the real port when 0 was configured). */
  public InetSocketAddress getAddress() throws IOException {
    RPC.Server s = server;
    if (s == null) {
      throw new IOException("The Localized Cache service is not started");
    }
    return NetUtils.getConnectAddress(s);
  }
}
