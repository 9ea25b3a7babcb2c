import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
const out=console.log;
const c=await browser.newContext({storageState:'state-390.json',viewport:{width:390,height:844},isMobile:true,hasTouch:true});
const p=await c.newPage();
await p.goto(B+'/s/audit',{waitUntil:'networkidle'});
out('Audit link box', JSON.stringify(await p.locator('nav a, header a').filter({hasText:/^Audit$/}).first().evaluate(e=>{const r=e.getBoundingClientRect();const cs=getComputedStyle(e);let a=e.parentElement,ov='';while(a){const s=getComputedStyle(a);if(s.overflowX!=='visible'){ov=a.tagName+'.'+a.className+':'+s.overflowX+' w'+a.clientWidth+' sw'+a.scrollWidth;break;}a=a.parentElement}return {x:r.x,y:r.y,w:r.width,vis:cs.visibility,disp:cs.display,ov}})));
let links=[];
for (const d of [1,2]){ await p.goto(B+'/s/devices/'+d,{waitUntil:'networkidle'}); links.push(...await p.$$eval('main a',as=>as.filter(a=>/explore/.test(a.href)).map(a=>a.href)));}
out('explore links',links.length);
for (const l of links){ await p.goto(l,{waitUntil:'networkidle'}); await p.waitForTimeout(1200); const h=await p.locator('main h1').innerText().catch(()=>''); if(/Cold Room - Temp/.test(h)){ out('found',l); break;} }
await p.screenshot({path:'/tmp/look/explore-coldroom-390.png',fullPage:true});
let t=await p.locator('main').innerText(); out('CR:', t.slice(t.indexOf('Lowest')).replace(/\n/g,' | ').slice(0,700));
// pin a comment via time field
const time=p.getByLabel(/^Time/); out('time input type', await time.getAttribute('type'));
await p.getByRole('textbox',{name:'Comment'}).fill('Door left open during delivery');
await p.getByRole('button',{name:'Pin comment'}).click(); await p.waitForTimeout(1200);
t=await p.locator('main').innerText(); out('AFTER PIN (no time):', t.slice(t.indexOf('Alarms and comments')).replace(/\n/g,' | ').slice(0,500));
// try 7 days for gaps
await p.getByText('Last 7 days').click().catch(()=>{}); await p.waitForTimeout(2500);
await p.screenshot({path:'/tmp/look/explore-coldroom-7d-390.png',fullPage:true});
t=await p.locator('main').innerText(); out('7D:', t.slice(t.indexOf('Lowest')).replace(/\n/g,' | ').slice(0,600));
const u=p.url(); await c.close();
const c2=await browser.newContext({storageState:'state-1280.json',viewport:{width:1280,height:900}}); const q=await c2.newPage();
await q.goto(u,{waitUntil:'networkidle'}); await q.waitForTimeout(2000); await q.screenshot({path:'/tmp/look/explore-coldroom-1280.png',fullPage:true});
await browser.close();
