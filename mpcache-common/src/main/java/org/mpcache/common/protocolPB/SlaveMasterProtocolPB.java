package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.SlaveMasterProtos;

/**
 * The Hadoop RPC protocol for slave to master: registration, heartbeats, block and hit reports, replace requests, served with {@code ProtobufRpcEngine2} so that Hadoop's SASL
 * authentication and service-level authorization apply to it.
 *
 * <p>The protocol name is the interface's class name: service-level authorization loads it
 * to find the protocol's ACL ({@code security.mpcache.*.protocol.acl}).
 */
@KerberosInfo(serverPrincipal = MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY)
@ProtocolInfo(protocolName = "org.mpcache.common.protocolPB.SlaveMasterProtocolPB", protocolVersion = 1)
public interface SlaveMasterProtocolPB extends SlaveMasterProtos.SlaveMasterService.BlockingInterface {
}
