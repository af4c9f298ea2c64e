package org.mpcache.common.protocolPB;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.thirdparty.protobuf.ByteString;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.proto.LocalizedProtos.ApplicationFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ApplicationFinishedResponseProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerFinishedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerFinishedResponseProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerStartedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ContainerStartedResponseProto;
import org.mpcache.common.proto.LocalizedProtos.ReportRetainedRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ReportRetainedResponseProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ReturnSpaceRequestProto;
import org.mpcache.common.proto.LocalizedProtos.ReturnSpaceResponseProto;
import org.mpcache.common.proto.LocalizedProtos.RequestSpaceResponseProto;
import org.mpcache.common.proto.LocalizedProtos.RunningOnNodeRequestProto;
import org.mpcache.common.proto.LocalizedProtos.RunningOnNodeResponseProto;

/**
 * Serves {@link LocalizedProtocolPB} calls from a {@link LocalizedProtocol} implementation on the
 * slave. Every request's values are checked first ({@link RequestChecks}): ids of 1 to
 * {@link RequestChecks#MAX_ID_CHARS} characters without control characters, byte counts below
 * 2^63, a positive size asked for, at most {@link #MAX_RUNNING} ids of running applications or
 * containers; a bad one is refused with a {@link RequestRefusedException}
 * naming the field, before the implementation sees it. Thread-safe when the implementation is.
 */
public final class LocalizedProtocolServerSideTranslatorPB implements LocalizedProtocolPB {
  private static final ReportRetainedResponseProto RETAINED =
      ReportRetainedResponseProto.getDefaultInstance();
  private static final ReturnSpaceResponseProto RETURNED =
      ReturnSpaceResponseProto.getDefaultInstance();
  private static final ContainerStartedResponseProto CONTAINER_STARTED =
      ContainerStartedResponseProto.getDefaultInstance();
  private static final ContainerFinishedResponseProto CONTAINER_FINISHED =
      ContainerFinishedResponseProto.getDefaultInstance();
  private static final ApplicationFinishedResponseProto APPLICATION_FINISHED =
      ApplicationFinishedResponseProto.getDefaultInstance();

  /** The most applications, and the most containers, one report of a node's may list. */
  public static final int MAX_RUNNING = 100_000;
  private static final RunningOnNodeResponseProto RUNNING =
      RunningOnNodeResponseProto.getDefaultInstance();

  private final LocalizedProtocol impl;

  public LocalizedProtocolServerSideTranslatorPB(LocalizedProtocol impl) {
    this.impl = Objects.requireNonNull(impl, "impl");
  }

  @Override
  public RequestSpaceResponseProto requestSpace(RpcController controller,
      RequestSpaceRequestProto request) throws ServiceException {
    try {
      ids(request.getApplicationIdBytes(), request.getContainerIdBytes(),
          request.getAttemptIdBytes());
      RequestChecks.uint64("bytes", request.getBytes(), 1, Long.MAX_VALUE);
      RequestChecks.optionalText("jobType", request.getJobTypeBytes(), RequestChecks.MAX_ID_CHARS);
      RequestChecks.uint64("jobInputBytes", request.getJobInputBytes(), 0, Long.MAX_VALUE);
      LocalizedGrant grant = impl.requestSpace(request.getApplicationId(),
          request.getContainerId(), request.getAttemptId(), request.getBytes(),
          new LocalizedJob(request.getJobType(),
              request.hasJobInputBytes() ? request.getJobInputBytes() : -1));
      RequestSpaceResponseProto.Builder b =
          RequestSpaceResponseProto.newBuilder().setGranted(grant.isGranted());
      if (grant.isGranted()) {
        b.setDir(grant.dir());
      } else {
        b.setDenyReason(grant.denyReason());
      }
      return b.build();
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ReportRetainedResponseProto reportRetained(RpcController controller,
      ReportRetainedRequestProto request) throws ServiceException {
    try {
      dirBytes(request.getApplicationIdBytes(), request.getContainerIdBytes(),
          request.getAttemptIdBytes(), request.getDirBytes(), request.getBytes());
      impl.reportRetained(request.getApplicationId(), request.getContainerId(),
          request.getAttemptId(), request.getDir(), request.getBytes());
      return RETAINED;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ReturnSpaceResponseProto returnSpace(RpcController controller,
      ReturnSpaceRequestProto request) throws ServiceException {
    try {
      dirBytes(request.getApplicationIdBytes(), request.getContainerIdBytes(),
          request.getAttemptIdBytes(), request.getDirBytes(), request.getBytes());
      impl.returnSpace(request.getApplicationId(), request.getContainerId(),
          request.getAttemptId(), request.getDir(), request.getBytes());
      return RETURNED;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  /** Checks an attempt's ids, an SSD directory and a byte count (of a retained or returned grant). */
  private static void dirBytes(ByteString applicationId, ByteString containerId,
      ByteString attemptId, ByteString dir, long bytes) throws RequestRefusedException {
    ids(applicationId, containerId, attemptId);
    RequestChecks.text("dir", dir, RequestChecks.MAX_ID_CHARS);
    RequestChecks.uint64("bytes", bytes, 0, Long.MAX_VALUE);
  }

  @Override
  public ContainerStartedResponseProto containerStarted(RpcController controller,
      ContainerStartedRequestProto request) throws ServiceException {
    try {
      RequestChecks.text("containerId", request.getContainerIdBytes(), RequestChecks.MAX_ID_CHARS);
      RequestChecks.text("applicationId", request.getApplicationIdBytes(),
          RequestChecks.MAX_ID_CHARS);
      RequestChecks.text("user", request.getUserBytes(), RequestChecks.MAX_ID_CHARS);
      impl.containerStarted(request.getContainerId(), request.getApplicationId(),
          request.getUser());
      return CONTAINER_STARTED;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ContainerFinishedResponseProto containerFinished(RpcController controller,
      ContainerFinishedRequestProto request) throws ServiceException {
    try {
      RequestChecks.text("containerId", request.getContainerIdBytes(), RequestChecks.MAX_ID_CHARS);
      impl.containerFinished(request.getContainerId());
      return CONTAINER_FINISHED;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public ApplicationFinishedResponseProto applicationFinished(RpcController controller,
      ApplicationFinishedRequestProto request) throws ServiceException {
    try {
      RequestChecks.text("applicationId", request.getApplicationIdBytes(),
          RequestChecks.MAX_ID_CHARS);
      impl.applicationFinished(request.getApplicationId());
      return APPLICATION_FINISHED;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public RunningOnNodeResponseProto runningOnNode(RpcController controller,
      RunningOnNodeRequestProto request) throws ServiceException {
    try {
      RequestChecks.count("applicationIds", request.getApplicationIdsCount(), MAX_RUNNING);
      RequestChecks.count("containerIds", request.getContainerIdsCount(), MAX_RUNNING);
      for (ByteString id : request.getApplicationIdsList().asByteStringList()) {
        RequestChecks.text("applicationIds", id, RequestChecks.MAX_ID_CHARS);
      }
      for (ByteString id : request.getContainerIdsList().asByteStringList()) {
        RequestChecks.text("containerIds", id, RequestChecks.MAX_ID_CHARS);
      }
      impl.runningOnNode(List.copyOf(request.getApplicationIdsList()),
          List.copyOf(request.getContainerIdsList()));
      return RUNNING;
    } catch (IOException | RuntimeException e) {
      throw new ServiceException(e);
    }
  }

  private static void ids(ByteString applicationId, ByteString containerId, ByteString attemptId)
      throws RequestRefusedException {
    RequestChecks.text("applicationId", applicationId, RequestChecks.MAX_ID_CHARS);
    RequestChecks.text("containerId", containerId, RequestChecks.MAX_ID_CHARS);
    RequestChecks.text("attemptId", attemptId, RequestChecks.MAX_ID_CHARS);
  }
}
