package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.common.proto.AdminProtos;

/**
 * The Hadoop RPC protocol for administrator to master: cluster reports, served with {@code ProtobufRpcEngine2} so that Hadoop's SASL
 * authentication and service-level authorization apply to it.
 */
@ProtocolInfo(protocolName = "org.mpcache.AdminProtocol", protocolVersion = 1)
public interface AdminProtocolPB extends AdminProtos.AdminService.BlockingInterface {
}
