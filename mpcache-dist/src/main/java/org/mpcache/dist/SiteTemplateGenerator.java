package org.mpcache.dist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.mpcache.common.MpCacheConfigKeys;
import org.w3c.dom.Comment;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Writes the distribution's {@code conf/mpcache-site.xml}: every key of the production modules'
 * defaults files ({@link MpCacheConfigKeys#DEFAULT_RESOURCES}), in their order and sections, as a
 * commented-out property with its default value and description,
 * so that an operator uncomments what to change and the template can never miss a key. The build
 * runs it while packaging the distribution. Stateless.
 */
public final class SiteTemplateGenerator {

  /** The line before each commented-out property. */
  static final String PROPERTY_START = "  <!--\n";
  /** The line after each commented-out property. */
  static final String PROPERTY_END = "  -->\n";

  private SiteTemplateGenerator() {
  }

  /** Writes the template to the file named by the only argument. */
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: SiteTemplateGenerator <output file>");
    }
    Path out = Paths.get(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, generate(), StandardCharsets.UTF_8);
  }

  /** The template for the production defaults files on the classpath, all of which must be. */
  public static String generate() throws IOException {
    List<Document> docs = new ArrayList<>();
    for (String resource : MpCacheConfigKeys.DEFAULT_RESOURCES) {
      try (InputStream in = SiteTemplateGenerator.class.getClassLoader()
          .getResourceAsStream(resource)) {
        if (in == null) {
          throw new IOException(resource + " is not on the classpath");
        }
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        docs.add(f.newDocumentBuilder().parse(in));
      } catch (ParserConfigurationException | SAXException e) {
        throw new IOException("Cannot read " + resource, e);
      }
    }
    return generate(docs);
  }

  static String generate(List<Document> defaults) {
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\"?>\n<!--\n")
        .append("  mpCache site configuration, read by the master, the slaves and the admin CLI from\n")
        .append("  the launcher's conf directory (MPCACHE_CONF_DIR). Every key is listed below,\n")
        .append("  commented out, with its default: uncomment and edit the ones to change.\n")
        .append("  Keys read by clients and tasks (mpcache.master.rpc-address, mpcache.client.*,\n")
        .append("  mpcache.localized.*) go into Hadoop's core-site.xml / mapred-site.xml instead:\n")
        .append("  see docs/install.md. Generated from the modules' defaults files (")
        .append(String.join(", ", MpCacheConfigKeys.DEFAULT_RESOURCES)).append(").\n-->\n")
        .append("<configuration>\n");
    for (Document doc : defaults) {
      appendProperties(doc, b);
    }
    return b.append("</configuration>\n").toString();
  }

  private static void appendProperties(Document defaults, StringBuilder b) {
    for (Node n = defaults.getDocumentElement().getFirstChild(); n != null;
        n = n.getNextSibling()) {
      if (n instanceof Comment c) {
        b.append("\n  <!-- ").append(commentSafe(c.getData().strip())).append(" -->\n");
      } else if (n instanceof Element e && e.getTagName().equals("property")) {
        String name = text(e, "name");
        String value = text(e, "value");
        String[] lines = text(e, "description").strip().split("\\s*\\n\\s*");
        for (int i = 0; i < lines.length; i++) {
          b.append(i == 0 ? "  <!-- " : "       ").append(commentSafe(lines[i]))
              .append(i == lines.length - 1 ? " -->\n" : "\n");
        }
        // The property alone in its comment, so that removing the two marker lines enables it.
        b.append(PROPERTY_START).append("  <property>\n    <name>")
            .append(commentSafe(escape(name))).append("</name>\n    <value>")
            .append(commentSafe(escape(value))).append("</value>\n  </property>\n")
            .append(PROPERTY_END);
      }
    }
  }

  private static String text(Element e, String tag) {
    var list = e.getElementsByTagName(tag);
    return list.getLength() == 0 ? "" : list.item(0).getTextContent().trim();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** XML comments may not contain "--" nor end with "-". */
  private static String commentSafe(String s) {
    String t = s;
    while (t.contains("--")) {
      t = t.replace("--", "- -");
    }
    return t.endsWith("-") ? t + " " : t;
  }
}
