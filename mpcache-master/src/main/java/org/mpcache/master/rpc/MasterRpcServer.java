package org.mpcache.master.rpc;

import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.proto.AdminProtos.AdminService;
import org.mpcache.common.proto.ClientMasterProtos.ClientMasterService;
import org.mpcache.common.proto.SlaveMasterProtos.SlaveMasterService;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;
import org.mpcache.common.protocolPB.SlaveMasterProtocolPB;

/**
 * The master's one Hadoop RPC server, serving the slave, client and admin protocols on the port of
 * {@code mpcache.master.rpc-address}. Thread-safe; the server's handlers call the protocol
 * handlers concurrently.
 */
public final class MasterRpcServer extends AbstractService {
  private final InetSocketAddress bindAddress;
  private final int handlers;
  private final SlaveMasterProtocolPB slaveHandler;
  private final ClientMasterProtocolPB clientHandler;
  private final AdminProtocolPB adminHandler;
  private volatile RPC.Server server;

  public MasterRpcServer(InetSocketAddress bindAddress, int handlers,
      SlaveMasterProtocolPB slaveHandler, ClientMasterProtocolPB clientHandler,
      AdminProtocolPB adminHandler) {
    super(MasterRpcServer.class.getSimpleName());
    this.bindAddress = bindAddress;
    this.handlers = handlers;
    this.slaveHandler = slaveHandler;
    this.clientHandler = clientHandler;
    this.adminHandler = adminHandler;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    RPC.Server s = RpcSupport.server(conf, SlaveMasterProtocolPB.class,
        SlaveMasterService.newReflectiveBlockingService(slaveHandler), bindAddress, handlers);
    RpcSupport.addProtocol(s, conf, ClientMasterProtocolPB.class,
        ClientMasterService.newReflectiveBlockingService(clientHandler));
    RpcSupport.addProtocol(s, conf, AdminProtocolPB.class,
        AdminService.newReflectiveBlockingService(adminHandler));
    server = s;
    super.serviceInit(conf);
  }

  @Override
  protected void serviceStart() throws Exception {
    server.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (server != null) {
      server.stop();
    }
    super.serviceStop();
  }

  /** The address the server listens on (the real port when configured with port 0). */
  public InetSocketAddress getAddress() {
    return NetUtils.getConnectAddress(server);
  }
}
