package org.mpcache.master.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.http.HttpServer2;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.master.status.MasterStatus;
import org.mpcache.master.tools.ProtoJson;

/**
 * Serves {@code /status.json}, which the status page renders: {@code report} is what
 * {@code mpcache admin report -json} prints (the cluster, and per slave its address, heartbeat,
 * space split, cached blocks and counters), {@code datasets} what {@code mpcache admin datasets
 * -json} lists. Instrumentation access is checked as for {@code /jmx}.
 *
 * <p>Thread-safe: stateless; the status source is thread-safe.
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (!HttpServer2.isInstrumentationAccessAllowed(getServletContext(), req, resp)) {
      return;
    }
    MasterStatus status = (MasterStatus) getServletContext()
        .getAttribute(MasterHttpServer.STATUS_SOURCE_ATTRIBUTE);
    ObjectNode doc = JsonNodeFactory.instance.objectNode();
    doc.set("report", ProtoJson.toJson(status.report()));
    ArrayNode datasets = doc.putArray("datasets");
    for (DatasetStatusProto d : status.datasets(null)) {
      datasets.add(ProtoJson.toJson(d));
    }
    resp.setContentType("application/json; charset=utf-8");
    resp.setHeader("Cache-Control", "no-store");
    try (Writer w = resp.getWriter()) {
      MAPPER.writeValue(w, doc);
    }
  }
}
