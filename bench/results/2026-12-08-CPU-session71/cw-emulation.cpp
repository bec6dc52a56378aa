// Session 71: a sequential emulation of numbercost2.cu's NumberLevelsCW (claims at the write), phase by phase, checked
// against a host Cuthill-McKee (SPARSEPACK's rule) on an N x N 5-point grid from corner 0. The tables are std::maps;
// a level's writes (bitmap, claims of the next level) run in a random order of the written positions, as the GPU's
// threads may. Build: g++ -O2 -o cw cw-emulation.cpp ; run: ./cw N   (session 71: N = 1, 2, 3, 17, 100, 301 identical)
#include <cstdio>
#include <vector>
#include <algorithm>
#include <map>
#include <cstdlib>
using namespace std;
int main(int argc,char**argv){int N=atoi(argv[1]),n=N*N;vector<int>ia(1,0),ja;
for(int i=0;i<N;i++)for(int j=0;j<N;j++){if(i>0)ja.push_back((i-1)*N+j);if(j>0)ja.push_back(i*N+j-1);if(j<N-1)ja.push_back(i*N+j+1);if(i<N-1)ja.push_back((i+1)*N+j);ia.push_back(ja.size());}
auto deg=[&](int v){return ia[v+1]-ia[v];};
// host CM
vector<int>q{0},lev(n,-1);lev[0]=0;for(size_t h=0;h<q.size();h++){int u=q[h];vector<int>c;for(int k=ia[u];k<ia[u+1];k++)if(lev[ja[k]]<0)c.push_back(ja[k]),lev[ja[k]]=lev[u]+1;stable_sort(c.begin(),c.end(),[&](int a,int b){return deg(a)<deg(b);});for(int x:c)q.push_back(x);}
// CW
vector<char>bits(n,0);map<int,unsigned>T[2];vector<int>perm{0};bits[0]=1;vector<int>lrow{0};
for(int k=ia[0],j=0;k<ia[1];k++,j++)T[0][ja[k]]=j;
for(int lvl=0;;lvl++){int cur=lvl&1,nxt=1-cur;T[nxt].clear();
 vector<vector<int>>chs(lrow.size());
 for(size_t t=0;t<lrow.size();t++){int u=lrow[t];vector<pair<unsigned,int>>c;for(int k=ia[u],j=0;k<ia[u+1];k++,j++){int w=ja[k];if(bits[w])continue;if(!T[cur].count(w)){printf("missing key\n");return 1;}if(T[cur][w]==(t<<2|j))c.push_back({(unsigned)deg(w)<<2|j,w});}
  sort(c.begin(),c.end());for(auto&p:c)chs[t].push_back(p.second);}
 vector<int>nl;for(auto&c:chs)for(int x:c)nl.push_back(x);
 // write phase in a random thread order
 vector<int>order(nl.size());for(size_t i=0;i<order.size();i++)order[i]=i;random_shuffle(order.begin(),order.end());
 for(int pos:order){int x=nl[pos];perm.push_back(-1);bits[x]=1;for(int k=ia[x],j=0;k<ia[x+1];k++,j++){int w=ja[k];if(bits[w])continue;if(T[cur].count(w))continue;unsigned key=pos<<2|j;auto it=T[nxt].find(w);if(it==T[nxt].end())T[nxt][w]=key;else it->second=min(it->second,key);}}
 perm.resize(perm.size()-nl.size());for(int x:nl)perm.push_back(x);
 if(nl.empty())break;lrow=nl;}
printf("N=%d %s (%zu of %d)\n",N,perm==q?"identical":"DIFFERENT",perm.size(),n);return perm!=q;}
