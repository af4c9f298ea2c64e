package org.mpcache.master.security;

import org.apache.hadoop.security.authorize.PolicyProvider;
import org.apache.hadoop.security.authorize.Service;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;
import org.mpcache.master.MasterConfigKeys;

/**
 * The master's service-level authorization: one ACL per protocol it serves (slave-to-master,
 * client-to-master, admin), checked by its RPC server when {@code hadoop.security.authorization}
 * is true, as HDFS's {@code HDFSPolicyProvider} does for the NameNode. Immutable.
 */
public final class MasterPolicyProvider extends PolicyProvider {
  private static final Service[] SERVICES = {
      new Service(MasterConfigKeys.SLAVE_MASTER_ACL_KEY, SlaveMasterProtocolPB.class),
      new Service(MasterConfigKeys.CLIENT_MASTER_ACL_KEY, ClientMasterProtocolPB.class),
      new Service(MasterConfigKeys.ADMIN_PROTOCOL_ACL_KEY, AdminProtocolPB.class)};

  @Override
  public Service[] getServices() {
    return SERVICES.clone();
  }
}
