package org.mpcache.slave.security;

import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.LocalizedProtocolPB;
import org.mpcache.slave.SlaveConfigKeys;

/**
 * The slave's service-level authorization: one ACL per protocol it serves (client-to-slave on its
 * client RPC server, Localized on its Localized Cache server), checked when
 * {@code hadoop.security.authorization} is true. Immutable.
 */
public final class SlavePolicyProvider extends PolicyProvider {
  private static final Service[] SERVICES = {
      new Service(SlaveConfigKeys.CLIENT_SLAVE_ACL_KEY, ClientSlaveProtocolPB.class),
      new Service(SlaveConfigKeys.LOCALIZED_ACL_KEY, LocalizedProtocolPB.class)};

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
