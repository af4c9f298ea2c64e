package org.mpcache.common.protocolPB;

import org.apache.hadoop.hdfs.security.token.block.BlockTokenSelector;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.token.TokenInfo;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.LocalizedProtos.LocalizedService;

/**
 * The Hadoop RPC face of {@link LocalizedProtocol}: the generated protobuf service. The
 * NodeManager calls it with its Kerberos ticket; tasks, which hold none, with an HDFS block token
 * of their own user ({@code @TokenInfo}), as on the client protocols.
 *
 * <p>The protocol name is the interface's class name: service-level authorization loads it
 * to find the protocol's ACL ({@code security.mpcache.*.protocol.acl}).
 */
@KerberosInfo(serverPrincipal = MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY)
@TokenInfo(BlockTokenSelector.class)
@ProtocolInfo(protocolName = "org.mpcache.common.protocolPB.LocalizedProtocolPB", protocolVersion = 1)
public interface LocalizedProtocolPB extends LocalizedService.BlockingInterface {
}
