package org.mpcache.slave;

import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.service.AbstractService;
import org.mpcache.common.proto.ClientSlaveProtos.ClientSlaveService;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;
import org.mpcache.common.protocolPB.RpcSupport;

/**
 * The slave's Hadoop RPC server for clients (lookups, cached reads, write-through fills).
 * Thread-safe; its handler threads call the Cache Master concurrently.
 */
public final class SlaveRpcServer extends AbstractService {
  private final InetSocketAddress bindAddress;
  private final int handlers;
  private final ClientSlaveProtocolPB handler;
  private volatile RPC.Server server;

  public SlaveRpcServer(InetSocketAddress bindAddress, int handlers,
      ClientSlaveProtocolPB handler) {
    super(SlaveRpcServer.class.getSimpleName());
    this.bindAddress = bindAddress;
    this.handlers = handlers;
    this.handler = handler;
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    server = RpcSupport.server(conf, ClientSlaveProtocolPB.class,
        ClientSlaveService.newReflectiveBlockingService(handler), bindAddress, handlers);
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

  /** The port the server listens on (the real one when configured with port 0). */
  public int getPort() {
    return NetUtils.getConnectAddress(server).getPort();
  }
}
