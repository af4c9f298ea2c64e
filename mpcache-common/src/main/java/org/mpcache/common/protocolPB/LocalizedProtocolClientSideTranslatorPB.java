package org.mpcache.common.protocolPB;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.proto.LocalizedProtos.ApplicationFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerStartedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ReportRetainedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceResponseProto;
import org.mpcache.common.proto.LocalizedProtos.ReturnSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RunningOnNodeRequestProto;

/**
 * Calls a slave's Localized Cache over Hadoop RPC: the client side of {@link LocalizedProtocol}, used
 * by map and reduce tasks and by the NodeManager's auxiliary service. Remote failures surface as
 * {@link IOException}s. Thread-safe (Hadoop RPC proxies are).
 */
public final class LocalizedProtocolClientSideTranslatorPB implements LocalizedProtocol, Closeable {
  private final LocalizedProtocolPB proxy;

  /**
   * Connects to the slave at {@code address}; {@code conf}'s {@code ipc.client.*} keys decide the
   * timeouts and retries.
   */
  public LocalizedProtocolClientSideTranslatorPB(InetSocketAddress address, Configuration conf)
      throws IOException {
    Configuration rpcConf = new Configuration(conf);
    RPC.setProtocolEngine(rpcConf, LocalizedProtocolPB.class, ProtobufRpcEngine2.class);
    this.proxy = RPC.getProxy(LocalizedProtocolPB.class,
        RPC.getProtocolVersion(LocalizedProtocolPB.class), address, rpcConf);
  }

  @Override
  public LocalizedGrant requestSpace(String applicationId, String containerId, String attemptId,
      long bytes, LocalizedJob job) throws IOException {
    try {
      RequestSpaceRequestProto.Builder req = RequestSpaceRequestProto.newBuilder()
          .setApplicationId(applicationId).setContainerId(containerId).setAttemptId(attemptId)
          .setBytes(bytes);
      if (!job.jobType().isEmpty()) {
        req.setJobType(job.jobType());
      }
      if (job.inputBytes() >= 0) {
        req.setJobInputBytes(job.inputBytes());
      }
      RequestSpaceResponseProto r = proxy.requestSpace(null, req.build());
      return r.getGranted() ? LocalizedGrant.granted(r.getDir())
          : LocalizedGrant.denied(r.getDenyReason());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void reportRetained(String applicationId, String containerId, String attemptId,
      String dir, long bytes) throws IOException {
    try {
      proxy.reportRetained(null, ReportRetainedRequestProto.newBuilder()
          .setApplicationId(applicationId).setContainerId(containerId).setAttemptId(attemptId)
          .setDir(dir).setBytes(bytes).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void returnSpace(String applicationId, String containerId, String attemptId,
      String dir, long bytes) throws IOException {
    try {
      proxy.returnSpace(null, ReturnSpaceRequestProto.newBuilder()
          .setApplicationId(applicationId).setContainerId(containerId).setAttemptId(attemptId)
          .setDir(dir).setBytes(bytes).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void containerStarted(String containerId, String applicationId, String user)
      throws IOException {
    try {
      proxy.containerStarted(null, ContainerStartedRequestProto.newBuilder()
          .setContainerId(containerId).setApplicationId(applicationId).setUser(user).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void containerFinished(String containerId) throws IOException {
    try {
      proxy.containerFinished(null,
          ContainerFinishedRequestProto.newBuilder().setContainerId(containerId).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void applicationFinished(String applicationId) throws IOException {
    try {
      proxy.applicationFinished(null,
          ApplicationFinishedRequestProto.newBuilder().setApplicationId(applicationId).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  @Override
  public void runningOnNode(Collection<String> applicationIds, Collection<String> containerIds)
      throws IOException {
    try {
      proxy.runningOnNode(null, RunningOnNodeRequestProto.newBuilder()
          .addAllApplicationIds(applicationIds).addAllContainerIds(containerIds).build());
    } catch (ServiceException e) {
      throw unwrap(e);
    }
  }

  /** The remote or connection failure a {@link ServiceException} carries. */
  private static IOException unwrap(ServiceException e) {
    Throwable cause = e.getCause();
    return cause instanceof IOException io ? io : new IOException(e.getMessage(), e);
  }

  @Override
  public void close() {
    RPC.stopProxy(proxy);
  }
}
