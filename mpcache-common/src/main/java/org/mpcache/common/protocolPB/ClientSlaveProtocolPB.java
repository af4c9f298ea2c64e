package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.common.proto.ClientSlaveProtos;

/**
 * The Hadoop RPC protocol for client to slave: block lookup, cached reads and write-through fills, served with {@code ProtobufRpcEngine2} so that Hadoop's SASL
 * authentication and service-level authorization apply to it.
 */
@ProtocolInfo(protocolName = "org.mpcache.ClientSlaveProtocol", protocolVersion = 1)
public interface ClientSlaveProtocolPB extends ClientSlaveProtos.ClientSlaveService.BlockingInterface {
}
