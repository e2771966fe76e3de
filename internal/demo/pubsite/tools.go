package pubsite

// toolsPage offers two tools to agents with the WebMCP API
// (navigator.modelContext.registerTool): a read-only search, and an
// add-to-cart that acts (it POSTs to the site). Where the browser has no
// native API, the page does nothing: it does not polyfill.
const toolsPage = `<!doctype html><html><head><title>Tools</title></head><body>
<h1>Lamp finder</h1>
<p id="status">no tools</p>
<script>
if (navigator.modelContext && navigator.modelContext.registerTool) {
  navigator.modelContext.registerTool({
    name: "search_products",
    description: "Search the lamps and chairs by words.",
    inputSchema: {type: "object", properties: {query: {type: "string"}}, required: ["query"]},
    annotations: {readOnlyHint: true},
    execute: async ({query}) => {
      const names = ["Desk lamp", "Floor lamp", "Oak chair"].filter(n => n.toLowerCase().includes(String(query).toLowerCase()));
      return {content: [{type: "text", text: JSON.stringify(names)}]};
    },
  });
  navigator.modelContext.registerTool({
    name: "add_to_cart",
    description: "Add a product to the cart.",
    inputSchema: {type: "object", properties: {handle: {type: "string"}, quantity: {type: "integer"}}, required: ["handle"]},
    execute: async ({handle, quantity}) => {
      const r = await fetch("/tools/cart", {method: "POST", body: JSON.stringify({handle, quantity})});
      return {content: [{type: "text", text: "added " + handle}]};
    },
  });
  document.getElementById("status").textContent = "2 tools";
}
</script>
</body></html>`
