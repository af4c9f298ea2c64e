package org.mpcache.master.web;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.http.HttpServer2;
import org.mpcache.common.proto.AdminProtos.ReportRequestProto;
import org.mpcache.common.proto.AdminProtos.ReportResponseProto;
import org.mpcache.common.proto.AdminProtos.SlaveReportProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.common.proto.MpCacheProtos.SpaceReportProto;
import org.mpcache.common.protocolPB.AdminProtocolPB;

/**
 * Serves {@code /status.json}: the master's view of the cluster (policy, uptime, and per slave its
 * address, heartbeat age, space split, cached blocks, counters and byte hit ratio), which the status
 * page renders. Instrumentation access is checked as for {@code /jmx}.
 *
 * <p>Thread-safe: stateless; the status source is thread-safe.
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final JsonFactory JSON = new JsonFactory();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!HttpServer2.isInstrumentationAccessAllowed(getServletContext(), req, resp)) {
      return;
    }
    AdminProtocolPB source = (AdminProtocolPB) getServletContext()
        .getAttribute(MasterHttpServer.STATUS_SOURCE_ATTRIBUTE);
    ReportResponseProto report;
    try {
      report = source.report(null, ReportRequestProto.getDefaultInstance());
    } catch (Exception e) {
      resp.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR,
          "Cannot read the master's status: " + e);
      return;
    }
    resp.setContentType("application/json; charset=utf-8");
    resp.setHeader("Cache-Control", "no-store");
    try (Writer w = resp.getWriter(); JsonGenerator g = JSON.createGenerator(w)) {
      write(report, g);
    }
  }

  /** Writes one status document; package-private for tests. */
  static void write(ReportResponseProto report, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("policy", report.getPolicy());
    g.writeNumberField("uptimeMs", report.getMasterUptimeMs());
    g.writeArrayFieldStart("slaves");
    for (SlaveReportProto s : report.getSlavesList()) {
      g.writeStartObject();
      g.writeStringField("id", s.getSlave().getSlaveId());
      g.writeStringField("address", s.getSlave().getHost() + ":" + s.getSlave().getClientPort());
      g.writeStringField("datanode", s.getSlave().getDatanodeAddress());
      g.writeStringField("version", s.getSlave().getVersion());
      g.writeBooleanField("live", s.getLive());
      g.writeNumberField("lastHeartbeatAgeMs", s.getLastHeartbeatAgeMs());
      g.writeNumberField("cachedBlocks", s.getCachedBlocks());
      SpaceReportProto sp = s.getSpace();
      g.writeObjectFieldStart("space");
      g.writeNumberField("capacity", sp.getCapacity());
      g.writeNumberField("inputCacheCapacity", sp.getInputCacheCapacity());
      g.writeNumberField("inputCacheUsed", sp.getInputCacheUsed());
      g.writeNumberField("dynamicPoolCapacity", sp.getDynamicPoolCapacity());
      g.writeNumberField("poolLentToInput", sp.getPoolLentToInput());
      g.writeNumberField("poolLentToLocalized", sp.getPoolLentToLocalized());
      g.writeNumberField("localizedCacheCapacity", sp.getLocalizedCacheCapacity());
      g.writeNumberField("localizedCacheUsed", sp.getLocalizedCacheUsed());
      g.writeEndObject();
      SlaveCountersProto c = s.getCounters();
      g.writeNumberField("hits", c.getHits());
      g.writeNumberField("misses", c.getMisses());
      g.writeNumberField("bytesFromCache", c.getBytesFromCache());
      g.writeNumberField("bytesFromHdfs", c.getBytesFromHdfs());
      g.writeNumberField("fallbacks", c.getFallbacks());
      long bytes = c.getBytesFromCache() + c.getBytesFromHdfs();
      // Bytes, not lookups: the share of the bytes read through this slave that came from SSD.
      if (bytes > 0) {
        g.writeNumberField("hitRatio", (double) c.getBytesFromCache() / bytes);
      } else {
        g.writeNullField("hitRatio");
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
