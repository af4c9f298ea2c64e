package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.common.proto.ClientMasterProtos;

/**
 * The Hadoop RPC protocol for client to master: the directory of live slaves, served with {@code ProtobufRpcEngine2} so that Hadoop's SASL
 * authentication and service-level authorization apply to it.
 */
@ProtocolInfo(protocolName = "org.mpcache.ClientMasterProtocol", protocolVersion = 1)
public interface ClientMasterProtocolPB extends ClientMasterProtos.ClientMasterService.BlockingInterface {
}
