package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The generated {@code conf/mpcache-site.xml} is valid XML that sets nothing as shipped, and
 * enabling every commented-out property gives exactly the keys and defaults of the production
 * modules' defaults files.
 */
class SiteTemplateGeneratorTest {

  private static Map<String, String> defaults() throws Exception {
    Map<String, String> all = new TreeMap<>();
    for (String resource : MpCacheConfigKeys.DEFAULT_RESOURCES) {
      all.putAll(properties(SiteTemplateGenerator.class.getClassLoader()
          .getResourceAsStream(resource)));
    }
    return all;
  }

  /** name to value of every property element, empty values included. */
  private static Map<String, String> properties(InputStream xml) throws Exception {
    Map<String, String> out = new TreeMap<>();
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml);
    NodeList props = doc.getElementsByTagName("property");
    for (int i = 0; i < props.getLength(); i++) {
      Element p = (Element) props.item(i);
      out.put(p.getElementsByTagName("name").item(0).getTextContent().trim(),
          p.getElementsByTagName("value").item(0).getTextContent().trim());
    }
    return out;
  }

  private static Configuration load(String xml) {
    Configuration c = new Configuration(false);
    c.addResource(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "template");
    c.size(); // parse now, failing on malformed XML
    return c;
  }

  @Test
  void generate_asShippedSetsNothing() throws Exception {
    String t = SiteTemplateGenerator.generate();
    Configuration c = load(t);
    assertEquals(0, c.size(), "every property is commented out");
    assertFalse(defaults().isEmpty());
  }

  @Test
  void generate_uncommentedHoldsEveryDefaultKeyAndValue() throws Exception {
    String enabled = SiteTemplateGenerator.generate().replace(SiteTemplateGenerator.PROPERTY_START
        + "  <property>", "  <property>").replace("</property>\n"
        + SiteTemplateGenerator.PROPERTY_END, "</property>\n");
    Map<String, String> want = defaults();
    assertEquals(want, properties(new ByteArrayInputStream(
        enabled.getBytes(StandardCharsets.UTF_8))));
    assertEquals(want.get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY),
        load(enabled).get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY), "Hadoop reads it too");
  }

  @Test
  void generate_keepsDescriptionsAndSections() throws Exception {
    String t = SiteTemplateGenerator.generate();
    assertTrue(t.contains("<!-- Master -->"), "section comments are kept");
    assertTrue(t.contains("<!-- Client (the intercepting FileSystem) -->"), "of every file");
    assertFalse(t.contains("mpcache.puma.") || t.contains("mpcache.tiers."),
        "the evaluation's keys are not the operator's");
    assertTrue(t.contains("The master's RPC address (host:port)."), "descriptions are kept");
    assertNull(load(t).get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY));
  }
}
