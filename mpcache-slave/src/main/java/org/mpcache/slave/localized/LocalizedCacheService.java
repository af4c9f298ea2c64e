package org.mpcache.slave.localized;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.proto.LocalizedProtos.LocalizedService;
import org.mpcache.common.protocolPB.LocalizedProtocol;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolServerSideTranslatorPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.service.ServiceAcls;
import org.mpcache.slave.security.SlavePolicyProvider;

/**
 * Serves the slave's {@link LocalizedCache} over Hadoop RPC ({@code LocalizedProtocol}) to the
 * node's tasks and NodeManager auxiliary service, on
 * {@link LocalizedConfigKeys#LOCALIZED_BIND_ADDRESS_KEY}, each call checked for its authenticated
 * caller by {@link LocalizedOwners}: the NodeManager's users are
 * {@link LocalizedConfigKeys#NODEMANAGER_USERS_KEY} and the user the slave runs as. Callers
 * authenticate as configured ({@code hadoop.security.authentication}) or, when a token secret
 * manager is given, with an HDFS block token of their user, as tasks without a Kerberos ticket do.
 * The server starts in {@link #serviceStart}; stopping tolerates a service that never started.
 * Thread-safe, as Hadoop services are.
 */
public class LocalizedCacheService extends AbstractService {
  private final LocalizedCache cache;
  private final SecretManager<? extends TokenIdentifier> tokens;
  private volatile RPC.Server server;

  /** @param tokens verifies the tokens tasks authenticate with; null for none */
  public LocalizedCacheService(LocalizedCache cache,
      SecretManager<? extends TokenIdentifier> tokens) {
    super(LocalizedCacheService.class.getSimpleName());
    this.cache = Objects.requireNonNull(cache, "cache");
    this.tokens = tokens;
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
    List<String> nodeManagers = new ArrayList<>(Arrays.asList(conf.getTrimmedStrings(
        LocalizedConfigKeys.NODEMANAGER_USERS_KEY, LocalizedConfigKeys.NODEMANAGER_USERS_DEFAULT)));
    nodeManagers.add(UserGroupInformation.getLoginUser().getShortUserName());
    LocalizedProtocol checked = new OwnerCheckedLocalized(cache, new LocalizedOwners(nodeManagers),
        () -> {
          UserGroupInformation caller = Server.getRemoteUser();
          return caller == null ? null : caller.getShortUserName();
        });
    server = RpcSupport.server(conf, LocalizedProtocolPB.class,
        LocalizedService.newReflectiveBlockingService(
            new LocalizedProtocolServerSideTranslatorPB(checked)), address, handlers, tokens);
    // A refused caller is an expected answer: one log line, not a stack trace.
    server.addTerseExceptions(AccessControlException.class);
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
