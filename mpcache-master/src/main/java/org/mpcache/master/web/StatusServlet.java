package org.mpcache.master.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.util.Set;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.mpcache.common.proto.AdminProtos.DatasetStatusProto;
import org.mpcache.master.security.AdminAcls;
import org.mpcache.master.status.MasterStatus;
import org.mpcache.master.tools.ProtoJson;

/**
 * Serves {@code /status.json}, which the status page renders: {@code report} is what
 * {@code mpcache admin report -json} prints (the cluster, and per slave its address, heartbeat,
 * space split, cached blocks and counters), {@code datasets} what {@code mpcache admin datasets
 * -json} lists, {@code user} the caller as the authentication filter named it (null when
 * anonymous), and {@code datasetPaths} whether the datasets carry their paths.
 *
 * <p>With {@code hadoop.security.authorization} the document is the admin report, and only those
 * who may call {@code mpcache admin report} read it ({@link AdminAcls#checkRead}): an anonymous
 * caller gets 401 and any other user 403, as {@link HttpServer2#hasAdministratorAccess} answers
 * for the admin pages. Without authorization anyone the authentication filter lets in reads it.
 *
 * <p>Dataset paths name every user's input, so a caller who may not read them (see
 * {@link AdminAcls#mayRead}) gets each dataset's figures only: sizes, cached blocks and bytes,
 * priority and frequency, never its paths or the jobs and datasets its history names. The figures
 * kept are listed, so that a field added later stays hidden until someone decides otherwise.
 *
 * <p>Thread-safe: stateless; the status source is thread-safe.
 */
public final class StatusServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** The fields of a dataset shown to callers who may not see its paths. */
  private static final Set<String> FIGURES = Set.of("sizeBlocks", "cachedBlocks", "cachedBytes",
      "fillingBlocks", "full", "priority", "frequency", "lastAccessMs", "inAuxiliaryCache",
      "hits", "misses", "bytesFromCache", "bytesFromHdfs", "fills", "evictions", "byteHitRatio");

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    MasterStatus status = (MasterStatus) getServletContext()
        .getAttribute(MasterHttpServer.STATUS_SOURCE_ATTRIBUTE);
    AdminAcls acls = (AdminAcls) getServletContext()
        .getAttribute(MasterHttpServer.ADMIN_ACLS_ATTRIBUTE);
    String user = req.getRemoteUser();
    Configuration conf = (Configuration) getServletContext()
        .getAttribute(HttpServer2.CONF_CONTEXT_ATTRIBUTE);
    if (conf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
      if (user == null) {
        resp.sendError(HttpServletResponse.SC_UNAUTHORIZED,
            "Unauthenticated users are not authorized to read the status.");
        return;
      }
      try {
        acls.checkRead(UserGroupInformation.createRemoteUser(user), "the status");
      } catch (AccessControlException e) {
        resp.sendError(HttpServletResponse.SC_FORBIDDEN, e.getMessage());
        return;
      }
    }
    boolean paths = acls.mayRead(user);
    ObjectNode doc = JsonNodeFactory.instance.objectNode();
    doc.put("user", user);
    doc.put("datasetPaths", paths);
    doc.set("report", ProtoJson.toJson(status.report()));
    ArrayNode datasets = doc.putArray("datasets");
    for (DatasetStatusProto d : status.datasets(null)) {
      ObjectNode json = ProtoJson.toJson(d);
      if (!paths) {
        json.retain(FIGURES);
      }
      datasets.add(json);
    }
    resp.setContentType("application/json; charset=utf-8");
    resp.setHeader("Cache-Control", "no-store");
    try (Writer w = resp.getWriter()) {
      MAPPER.writeValue(w, doc);
    }
  }
}
