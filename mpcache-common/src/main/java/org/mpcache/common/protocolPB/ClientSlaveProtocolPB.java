package org.mpcache.common.protocolPB;

import org.apache.hadoop.hdfs.security.token.block.BlockTokenSelector;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.token.TokenInfo;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.ClientSlaveProtos;

/**
 * The Hadoop RPC protocol for client to slave: block lookups (which may have the slave fill a
 * missed block from HDFS), cached reads and read reports, served with {@code ProtobufRpcEngine2} so
 * that Hadoop's SASL authentication and service-level authorization apply to it.
 *
 * <p>The protocol name is the interface's class name: service-level authorization loads it
 * to find the protocol's ACL ({@code security.mpcache.*.protocol.acl}).
 */
@KerberosInfo(serverPrincipal = MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY)
@TokenInfo(BlockTokenSelector.class)
@ProtocolInfo(protocolName = "org.mpcache.common.protocolPB.ClientSlaveProtocolPB", protocolVersion = 1)
public interface ClientSlaveProtocolPB extends ClientSlaveProtos.ClientSlaveService.BlockingInterface {
}
