package org.mpcache.master.rpc;

import java.util.function.LongSupplier;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * Serves the administrator-to-master protocol ({@code mpcache admin report}). Thread-safe: it
 * holds no state of its own.
 */
public final class AdminHandler implements AdminProtocolPB {
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final LongSupplier monotonicClock;
  private final long startTime;

  public AdminHandler(SlaveRegistry registry, ReplaceArbitrator arbitrator,
      LongSupplier monotonicClock) {
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.monotonicClock = monotonicClock;
    this.startTime = monotonicClock.getAsLong();
  }

  @Override
  public ReportResponseProto report(RpcController c, ReportRequestProto req) {
    return ReportResponseProto.newBuilder().setPolicy(arbitrator.policyName())
        .setMasterUptimeMs(monotonicClock.getAsLong() - startTime)
        .addAllSlaves(registry.report()).build();
  }
}
